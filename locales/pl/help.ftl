### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = Pomoc jest w drodze: osoby kontaktowe zostały powiadomione.
help-no-recipients = Wezwanie pomocy nie dociera jeszcze do nikogo: { $cause } Proszę samodzielnie zadzwonić pod numer alarmowy 112.
help-delivery-failed = Nie udało się wysłać powiadomienia. Proszę samodzielnie zadzwonić pod numer alarmowy 112.
help-cooldown-reached = Alarm został uruchomiony { $minutes } min temu i dotarł do: { $who }. W pilnej sytuacji proszę zadzwonić pod numer alarmowy 112.
help-cooldown-nobody = Alarm sprzed { $minutes } min nie dotarł do nikogo. Nowy alarm można wysłać za { $left } min; osoba, która opiekuje się asystentem, może wcześniej zakończyć to oczekiwanie. Proszę samodzielnie zadzwonić pod numer alarmowy 112.
help-cooldown-sending = Alarm jest właśnie wysyłany. W pilnej sytuacji proszę zadzwonić pod numer alarmowy 112.
help-seen-by = Alarm zauważony i potwierdzony przez: { $who }.
help-by-email = e-mail
help-by-sms = SMS
help-by-call = połączenie
help-subject = NAGŁY WYPADEK: { $name } – wezwanie pomocy { help-how }
help-reminder-subject = PRZYPOMNIENIE – NAGŁY WYPADEK: { $name } – nikt jeszcze nie potwierdził alarmu
help-intro = { $name } prosi o pomoc przez asystenta głosowego ({ help-how }). Proszę natychmiast się skontaktować lub wysłać pomoc.
help-reminder-intro = Nikt jeszcze nie potwierdził tego alarmu. { $name } prosi o pomoc – wezwanie wysłano { $minutes } min temu przez asystenta głosowego. Proszę natychmiast się skontaktować lub wysłać pomoc.
help-confirm-line = Proszę potwierdzić odebranie tego alarmu: { $link }
help-name = Imię i nazwisko
help-address = Adres
help-phone = Telefon
help-birth-date = Data urodzenia
help-medical-notes = Informacje medyczne
help-coordinates = Współrzędne
help-map = Mapa
help-accuracy = Dokładność
help-fix-time = Czas ustalenia pozycji
help-position-unavailable = Pozycja niedostępna
help-position-not-shared = Pozycja: nieudostępniona (brak zgody)
help-triggered-from = Źródło alarmu
help-unknown = brak danych
help-none = brak
help-not-reported = nie podano
help-mobile-device = urządzenie mobilne
help-computer = komputer
help-unknown-device = nieznane urządzenie
help-call-112 = Jeśli nie ma możliwości pomocy, proszę zadzwonić pod numer alarmowy 112.
help-sms = NAGŁY WYPADEK: { $name } potrzebuje pomocy. Adres: { $address }. Tel.: { $phones }.
help-sms-reminder = PRZYPOMNIENIE, nikt jeszcze nie potwierdził. NAGŁY WYPADEK: { $name } potrzebuje pomocy. Adres: { $address }. Tel.: { $phones }.
help-sms-location = Lokalizacja: { $link }
help-sms-confirm = Odebrane? Proszę potwierdzić: { $link }
help-call = Uwaga, nagły wypadek. { $name } prosi o pomoc { help-how }. Adres: { $address }. Szczegóły są w wiadomości SMS i w e-mailu.
help-call-reminder = Przypomnienie: nikt jeszcze nie potwierdził tego alarmu.
help-call-press-1 = Proszę nacisnąć 1, aby potwierdzić odebranie alarmu.
help-call-thanks = Dziękujemy. { $name } widzi teraz, że alarm został odebrany.
help-ack-title = Wezwanie pomocy
help-ack-question = { $name }: wezwanie pomocy { help-how } o godz. { $time }.
help-ack-button = Potwierdzam odebranie alarmu
help-ack-thanks = Dziękujemy. { $name } wie już, że alarm został odebrany.
help-ack-hint = Proszę skontaktować się z osobą { $name } lub wysłać pomoc. Jeśli nie ma możliwości pomocy, proszę zadzwonić pod numer alarmowy 112.
help-path-down = Powiadomień przez { $channels } nie można teraz wysłać.
help-path-still = Powiadomienia przez { $channels } nadal działają.
help-path-none = Teraz nie można wysłać żadnego powiadomienia. W nagłym wypadku proszę samodzielnie zadzwonić pod numer alarmowy 112.
help-nobody-yet = Pomoc nie dociera jeszcze do nikogo – proszę dodać osobę kontaktową. W nagłym wypadku proszę samemu zadzwonić pod 112.
help-question = Czy mam powiadomić osoby kontaktowe? Proszę powiedzieć tak lub nie.
help-declined = Dobrze, nikogo nie powiadamiam.
help-again = Nie zrozumiałem. Czy mam powiadomić osoby kontaktowe? Proszę powiedzieć tak lub nie.
help-cause-no-contact = Nie wpisano żadnej osoby kontaktowej.
help-cause-no-channel = Osoby kontaktowe są wpisane, ale asystent nie może do nich dotrzeć: brakuje ustawienia „{ $missing }”.
help-missing-mail = wysyłanie e-maili (serwer poczty)
help-missing-sms = wysyłanie SMS-ów
help-missing-calls = połączenia telefoniczne
help-nobody-channel = Pomoc nie dociera jeszcze do nikogo: osoby kontaktowe są wpisane, ale brakuje ustawienia „{ $missing }”. Proszę powiedzieć o tym osobie, która opiekuje się asystentem. W nagłym wypadku proszę samemu zadzwonić pod 112.
help-last-failed = Ostatniego alarmu nie udało się doręczyć do: { $who }. Proszę powiedzieć o tym osobie, która opiekuje się asystentem.
help-confirm-unreachable = Powyższy link działa tylko w domu: ta bramka jest niedostępna z zewnątrz. Jeśli ktoś zadzwoni, proszę potwierdzić klawiszem 1; w przeciwnym razie proszę skontaktować się bezpośrednio z: { $name }.
help-how = { $way ->
    [spoken] głosowo
    [typed] pisemnie
    [key] klawiszem pomocy w telefonie
    [checkin] podczas codziennego pytania kontrolnego
   *[button] przyciskiem pomocy
}

help-reaches = Wezwanie pomocy dotrze teraz do: { $who }.
help-reaches-by = { $who } przez { $channels }
help-reaches-contacts = osoby kontaktowe
help-reaches-carers = { $count ->
    [one] opiekun
   *[other] opiekunowie
}
help-reaches-default = kontakt domu
help-confirm-direct = Powyższy link działa tylko w domu: ta bramka jest niedostępna z zewnątrz. Proszę skontaktować się bezpośrednio z: { $name }.
help-said = { $way ->
    [spoken] { $name } powiedział(a): „{ $words }”
   *[other] { $name } napisał(a): „{ $words }”
}

help-cooldown-again = Nowy alarm będzie można wysłać za { $left ->
        [one] minutę
        [few] { $left } minuty
       *[other] { $left } minut
    }; osoba, która opiekuje się asystentem, może wcześniej zakończyć to oczekiwanie.
