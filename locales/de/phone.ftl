### What the telephone lines say by themselves.

phone-greeting-named = Hallo { $name }. Wie kann ich helfen?
phone-greeting = Hallo. Wie kann ich helfen?
phone-goodbye = Auf Wiederhören.
phone-silence = Ich höre nichts mehr und lege jetzt auf. Ruf gern wieder an. Auf Wiederhören.
phone-refusal = Diese Nummer ist für den Sprachassistenten nicht freigeschaltet. Auf Wiederhören.
phone-sorry = Das hat leider nicht geklappt. Bitte versuch es gleich noch einmal.
phone-too-long = Das war zu lang für mich am Stück. Frag bitte noch einmal, in kürzeren Sätzen.
phone-help-key = { $form ->
    [informal] Für Hilfe drück jederzeit die { $key }.
   *[formal] Für Hilfe drücken Sie jederzeit die { $key }.
}
phone-help-keys = { $form ->
    [informal] Drück die 1 für Ja oder die 2 für Nein.
   *[formal] Drücken Sie die 1 für Ja oder die 2 für Nein.
}
phone-key-star = Sterntaste
phone-key-hash = Rautetaste
