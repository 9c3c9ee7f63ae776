### The page's labels and messages (the assistant's page in the browser).

page-settings = Instellingen
page-device-speech-hint = Antwoorden met de stem van dit apparaat
page-large-text = Grote letters
page-pace = Als ik pauzeer
page-pace-auto = Mijn tempo leren
page-pace-quick = Snel antwoorden
page-pace-normal = Even wachten
page-pace-patient = Op mij wachten
page-auto-voice = Automatisch: { $voice }
page-auto-voice-plain = Automatisch
page-needs-https = De microfoon werkt alleen op het beveiligde adres.
page-open-secure = Beveiligd adres openen
page-trust-device = Eerst dit apparaat instellen
page-needs-tls = De microfoon werkt alleen op een beveiligd adres (https), dat deze assistent nog niet biedt. Vraag degene die hem beheert HTTPS aan te zetten (de instelling TLS=auto).
page-mic-denied = U hebt de microfoon niet toegestaan. Sta hem toe in de site-instellingen van de browser (het pictogram naast het adres) en druk dan opnieuw op Spreken.
page-language = Taal
page-voice = Stem
page-device-speech = Op dit apparaat spreken
page-logout = Afmelden
page-question = Uw vraag
page-type-here = Typ uw vraag
page-send = Versturen
page-speak = Spreken
page-stop = Stop
page-new-conversation = Nieuw gesprek
page-delete-conversation = Gesprek verwijderen
page-memories = Wat de assistent onthoudt
page-add-memory = Toevoegen
page-new-memory = Iets om te onthouden
page-help = Hulp
page-help-confirm = Nu hulp inroepen? Uw contactpersonen worden gewaarschuwd.
page-help-confirm-unreachable = Bel in een noodgeval zelf 112: uw hulpoproep bereikt nu niemand. Uw contactpersonen toch waarschuwen?
page-help-yes = Ja, waarschuwen
page-cancel = Annuleren
page-sending = Alarm wordt verstuurd…
page-listening = Ik luister… spreek gewoon.
page-thinking = Een ogenblik…
page-heard = U zei
page-ready = Klaar.
page-quota = De daglimiet is bereikt. Om middernacht begint het opnieuw.
page-provider-failed = De assistent kan nu niet antwoorden. Probeer het zo nog eens.
page-busy = De assistent is bezet. Probeer het zo nog eens.
page-not-heard = Er was niets te horen. Zeg het alstublieft nog eens.
page-too-long = Dat was te lang in één keer. Zeg het alstublieft nog eens, in kortere zinnen.
page-lost = De verbinding is verbroken. Opnieuw proberen…
page-offline-since = Geen verbinding sinds { $time } – de gegevens kunnen verouderd zijn
page-reconnected = Weer verbonden.
page-no-mic = De microfoon kan hier niet worden gebruikt. Sta hem toe of typ uw vraag.
page-sources = Bronnen
page-cooldown = Het alarm is net verstuurd.
page-confirm-delete = Dit gesprek verwijderen?
page-seen-by = Gezien en bevestigd door { $who }.
page-error = Er ging iets mis
page-guest = Gast
page-admin = Beheer
page-reminders = Herinneringen
page-reminder = Herinnering
page-reminder-done = Gedaan
page-reminder-ok = OK
page-reminder-delete = Verwijderen
page-timer-over = De tijd is om.
page-no-reminders = Geen herinneringen.
page-checkin-title = Dagelijkse check
page-checkin-question = Is alles in orde?
page-checkin-fine = Het gaat goed
page-checkin-help = Ik heb hulp nodig
page-reminder-missed = Gemist terwijl de assistent niet draaide

page-signin-switch = U bent in deze browser aangemeld als { $current }. Doorgaan als { $new }?
page-signin-switch-yes = Doorgaan als { $new }
page-signin-switch-no = { $current } blijven
page-signin-invalid-link = Deze persoonlijke link is niet (meer) geldig. Vraag om een nieuwe.
page-signin-no-access = U hebt nog geen persoonlijke toegang.
page-signin-button = Aanmelden
page-signin-api = De API is beschreven op <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = Het beheerpaneel is voor de mensen die voice-gateway beheren, en u bent als iemand anders aangemeld. <a href="/">Terug naar de assistent</a>. Beheert u het zelf, open dan eenmaal in deze browser uw eigen beheerlink (in <code>admin-link.txt</code> naast de database).
page-signin-insecure-link = Met deze persoonlijke link kunt u zich op dit adres niet aanmelden: browsers onthouden de aanmelding alleen op een beveiligd adres (https) of op de machine van de gateway zelf, en dit adres is gewoon http. Vraag degene die voice-gateway beheert om HTTPS in te schakelen (de instelling <code>TLS=auto</code>, uitgelegd onder "Phones and tablets" in de README) en open uw link daarna op het https-adres dat daar staat. De microfoon heeft dat adres ook nodig.
page-signin-how = Aanmelden met een naam vraagt een single-sign-on-proxy vóór voice-gateway, en deze installatie heeft er geen. In plaats daarvan heeft ieder een persoonlijke link (die eindigt op <code>/?k=</code> en een lange code): vraag de uwe aan degene die voice-gateway beheert en open hem eenmaal op elk van uw apparaten; ze blijven aangemeld. Wie het beheert, vindt de eigen link in <code>admin-link.txt</code> naast de database en maakt links voor anderen in het beheerpaneel.
page-cared-for-by = Verzorgd door { $names }
page-notify-carers = Ook hen waarschuwen als ik om hulp roep of een herinnering niet bevestig
page-share-with-carers = Zij mogen de lijst van mijn gesprekken zien (nooit wat er gezegd is)
