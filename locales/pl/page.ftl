### The page's labels and messages (the assistant's page in the browser).

page-settings = Ustawienia
page-device-speech-hint = Odpowiedzi głosem tego urządzenia
page-large-text = Duży tekst
page-pace = Gdy robię przerwę
page-pace-auto = Ucz się mojego tempa
page-pace-quick = Odpowiadaj szybko
page-pace-normal = Poczekaj chwilę
page-pace-patient = Czekaj na mnie
page-auto-voice = Automatycznie: { $voice }
page-auto-voice-plain = Automatycznie
page-needs-https = Mikrofon działa tylko pod bezpiecznym adresem.
page-open-secure = Otwórz bezpieczny adres
page-trust-device = Najpierw skonfiguruj to urządzenie
page-needs-tls = Mikrofon działa tylko pod bezpiecznym adresem (https), którego ten asystent jeszcze nie oferuje. Poproś osobę, która nim zarządza, o włączenie HTTPS (ustawienie TLS=auto).
page-mic-denied = Nie zezwolono na mikrofon. Zezwól na niego w ustawieniach witryny przeglądarki (ikona obok adresu), a potem naciśnij ponownie Mów.
page-language = Język
page-voice = Głos
page-device-speech = Mów na tym urządzeniu
page-logout = Wyloguj
page-question = Twoje pytanie
page-type-here = Wpisz pytanie
page-send = Wyślij
page-speak = Mów
page-stop = Stop
page-new-conversation = Nowa rozmowa
page-delete-conversation = Usuń rozmowę
page-memories = Co pamięta asystent
page-add-memory = Dodaj
page-new-memory = Coś do zapamiętania
page-help = Pomoc
page-help-confirm = Wezwać teraz pomoc? Twoje osoby kontaktowe zostaną powiadomione.
page-help-confirm-unreachable = W nagłym wypadku proszę samemu zadzwonić pod 112: wezwanie pomocy nie dociera teraz do nikogo. Mimo to powiadomić osoby kontaktowe?
page-help-yes = Tak, powiadom
page-cancel = Anuluj
page-sending = Wysyłanie alarmu…
page-listening = Słucham… po prostu mów.
page-thinking = Chwileczkę…
page-heard = Powiedziałeś
page-ready = Gotowe.
page-quota = Dzienny limit został osiągnięty. Odnowi się o północy.
page-provider-failed = Asystent nie może teraz odpowiedzieć. Spróbuj za chwilę.
page-busy = Asystent jest teraz zajęty. Proszę spróbować za chwilę.
page-not-heard = Nic nie było słychać. Proszę powtórzyć.
page-too-long = To było za długie naraz. Proszę powtórzyć krótszymi zdaniami.
page-lost = Połączenie zostało przerwane. Ponawiam…
page-offline-since = Brak połączenia od { $time } – dane mogą być nieaktualne
page-reconnected = Połączono ponownie.
page-no-mic = Nie można tu użyć mikrofonu. Zezwól na niego lub wpisz pytanie.
page-sources = Źródła
page-cooldown = Alarm został właśnie wysłany.
page-confirm-delete = Usunąć tę rozmowę?
page-seen-by = Odebranie potwierdzone przez: { $who }.
page-error = Coś poszło nie tak
page-guest = Gość
page-admin = Administracja
page-reminders = Przypomnienia
page-reminder = Przypomnienie
page-reminder-done = Zrobione
page-reminder-ok = OK
page-reminder-delete = Usuń
page-timer-over = Czas minął.
page-no-reminders = Brak przypomnień.
page-checkin-title = Codzienne pytanie
page-checkin-question = Czy wszystko w porządku?
page-checkin-fine = Wszystko dobrze
page-checkin-help = Potrzebuję pomocy
page-reminder-missed = Pominięte, gdy asystent nie działał

page-signin-switch = W tej przeglądarce jesteś zalogowany(-a) jako { $current }. Kontynuować jako { $new }?
page-signin-switch-yes = Kontynuuj jako { $new }
page-signin-switch-no = Pozostań jako { $current }
page-signin-invalid-link = Ten osobisty link jest nieważny (już nie działa). Poproś o nowy.
page-signin-no-access = Nie masz jeszcze osobistego dostępu.
page-signin-button = Zaloguj się
page-signin-api = API jest opisane pod adresem <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = Panel administracyjny jest dla osób, które prowadzą voice-gateway, a jesteś zalogowany jako ktoś inny. <a href="/">Wróć do asystenta</a>. Jeśli to ty go prowadzisz, otwórz raz w tej przeglądarce swój własny link administratora (w pliku <code>admin-link.txt</code> obok bazy danych).
page-signin-insecure-link = Ten osobisty link nie może cię zalogować pod tym adresem: przeglądarki zachowują logowanie tylko pod bezpiecznym adresem (https) albo na komputerze samej bramki, a ten adres to zwykłe http. Poproś osobę, która prowadzi voice-gateway, o włączenie HTTPS (ustawienie <code>TLS=auto</code>, opisane w części „Phones and tablets” w README), a potem otwórz swój link pod podanym adresem https. Mikrofon też potrzebuje tego adresu.
page-signin-how = Logowanie nazwą wymaga serwera proxy pojedynczego logowania przed voice-gateway, a ta instalacja go nie ma. Zamiast tego każda osoba ma osobisty link (kończy się na <code>/?k=</code> i długim kodzie): poproś o swój osobę, która prowadzi voice-gateway, i otwórz go raz na każdym swoim urządzeniu; logowanie zostaje. Osoba, która go prowadzi, znajduje swój link w pliku <code>admin-link.txt</code> obok bazy danych i tworzy linki dla innych w panelu administracyjnym.
page-cared-for-by = Opiekunowie: { $names }
page-notify-carers = Powiadamiać też ich, gdy wołam o pomoc lub nie potwierdzę przypomnienia
page-share-with-carers = Mogą widzieć listę moich rozmów (nigdy ich treści)
