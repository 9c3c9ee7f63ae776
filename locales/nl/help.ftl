### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = Er komt hulp: uw contactpersonen zijn gewaarschuwd.
help-no-recipients = Uw hulpoproep bereikt nog niemand: { $cause } Bel alstublieft zelf het alarmnummer 112.
help-delivery-failed = Het waarschuwen is mislukt. Bel alstublieft zelf het alarmnummer 112.
help-cooldown-reached = Het alarm is { $minutes } minuten geleden gegeven en heeft { $who } bereikt. Is het dringend? Bel dan het alarmnummer 112.
help-cooldown-nobody = Het alarm van { $minutes } minuten geleden heeft niemand bereikt. Een nieuw alarm kan over { $left ->
        [one] een minuut
       *[other] { $left } minuten
    } worden verstuurd; wie de assistent beheert, kan deze wachttijd eerder beëindigen. Bel alstublieft zelf het alarmnummer 112.
help-cooldown-sending = Het alarm wordt op dit moment verstuurd. Is het dringend? Bel dan het alarmnummer 112.
help-seen-by = Gezien en bevestigd door { $who }.
help-by-email = e-mail
help-by-sms = sms
help-by-call = oproep
help-subject = NOODGEVAL: { $name } heeft { help-how } om hulp gevraagd
help-reminder-subject = HERINNERING – NOODGEVAL: niemand heeft het alarm van { $name } nog bevestigd
help-intro = { $name } heeft via de spraakassistent { help-how } om hulp gevraagd. Neem alstublieft meteen contact op of stuur hulp.
help-reminder-intro = Niemand heeft dit alarm nog bevestigd. { $name } heeft { $minutes } minuten geleden via de spraakassistent om hulp gevraagd. Neem alstublieft meteen contact op of stuur hulp.
help-confirm-line = Bevestig alstublieft dat u dit alarm hebt gezien: { $link }
help-name = Naam
help-address = Adres
help-phone = Telefoon
help-birth-date = Geboortedatum
help-medical-notes = Medische informatie
help-coordinates = Coördinaten
help-map = Kaart
help-accuracy = Nauwkeurigheid
help-fix-time = Tijdstip van de plaatsbepaling
help-position-unavailable = Locatie niet beschikbaar
help-position-not-shared = Locatie: niet gedeeld (geen toestemming)
help-triggered-from = Geactiveerd vanaf
help-unknown = onbekend
help-none = geen
help-not-reported = niet doorgegeven
help-mobile-device = mobiel apparaat
help-computer = computer
help-unknown-device = onbekend apparaat
help-call-112 = Als u niet kunt helpen, bel dan het alarmnummer 112.
help-sms = NOODGEVAL: { $name } heeft hulp nodig. Adres: { $address }. Tel: { $phones }.
help-sms-reminder = HERINNERING, nog niemand heeft bevestigd. NOODGEVAL: { $name } heeft hulp nodig. Adres: { $address }. Tel: { $phones }.
help-sms-location = Locatie: { $link }
help-sms-confirm = Gezien? Bevestig: { $link }
help-call = Let op, noodgeval. { $name } heeft { help-how } om hulp gevraagd. Adres: { $address }. De details staan in de sms en in de e-mail.
help-call-reminder = Herinnering: niemand heeft dit noodgeval nog bevestigd.
help-call-press-1 = Druk op 1 om te bevestigen dat u dit alarm hebt ontvangen.
help-call-thanks = Dank u. { $name } kan nu zien dat u het alarm hebt ontvangen.
help-ack-title = Noodalarm
help-ack-question = { $name } heeft om { $time } { help-how } om hulp gevraagd.
help-ack-button = Ik heb het alarm gezien
help-ack-thanks = Dank u. { $name } weet nu dat u het alarm hebt gezien.
help-ack-hint = Neem alstublieft contact op met { $name } of stuur hulp. Als u niet kunt helpen, bel dan het alarmnummer 112.
help-path-down = Meldingen via { $channels } kunnen nu niet worden verstuurd.
help-path-still = Meldingen via { $channels } werken nog.
help-path-none = Er kan nu geen melding worden verstuurd. Bel in een noodgeval alstublieft zelf het alarmnummer 112.
help-nobody-yet = Hulp bereikt nog niemand – voeg een contactpersoon toe. Bel in een noodgeval zelf het alarmnummer 112.
help-question = Zal ik uw contactpersonen waarschuwen? Zeg ja of nee.
help-declined = Goed, ik waarschuw niemand.
help-again = Dat heb ik niet begrepen. Zal ik uw contactpersonen waarschuwen? Zeg ja of nee.
help-cause-no-contact = Er is geen contactpersoon ingevoerd.
help-cause-no-channel = Uw contactpersonen zijn ingevoerd, maar de assistent kan ze niet bereiken: { $missing } ontbreekt.
help-missing-mail = het versturen van e-mail (mailserver)
help-missing-sms = het versturen van sms
help-missing-calls = telefoongesprekken
help-nobody-channel = Hulp bereikt nog niemand: uw contactpersonen zijn ingevoerd, maar { $missing } ontbreekt. Zeg het tegen wie de assistent beheert. Bel in een noodgeval zelf het alarmnummer 112.
help-last-failed = Het laatste alarm kon niet worden bezorgd bij { $who }. Zeg het tegen wie de assistent beheert.
help-confirm-unreachable = De link hierboven werkt alleen thuis: deze gateway is van buitenaf niet bereikbaar. Wordt u gebeld, bevestig dan met de 1; neem anders rechtstreeks contact op met { $name }.
help-how = { $way ->
    [spoken] met de stem
    [typed] schriftelijk
    [key] met de hulptoets van de telefoon
    [checkin] bij de dagelijkse controlevraag
   *[button] met de hulpknop
}

help-reaches = Een hulpvraag bereikt nu { $who }.
help-reaches-by = { $who } via { $channels }
help-reaches-contacts = de contactpersonen
help-reaches-carers = { $count ->
    [one] de verzorger
   *[other] de verzorgers
}
help-reaches-default = de contactpersoon van het huis
help-confirm-direct = De link hierboven werkt alleen thuis: deze gateway is van buitenaf niet bereikbaar. Neem rechtstreeks contact op met { $name }.
help-said = { $way ->
    [spoken] { $name } zei: “{ $words }”
   *[other] { $name } schreef: “{ $words }”
}

help-cooldown-again = Over { $left ->
        [one] een minuut
       *[other] { $left } minuten
    } kan een nieuw alarm worden verstuurd; wie de assistent beheert, kan deze wachttijd eerder beëindigen.
