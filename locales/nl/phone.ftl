### What the telephone lines say by themselves.

phone-greeting-named = Hallo { $name }. Waarmee kan ik helpen?
phone-greeting = Hallo. Waarmee kan ik helpen?
phone-goodbye = Tot ziens.
phone-silence = Ik hoor niets meer en hang nu op. Bel gerust nog eens. Tot ziens.
phone-refusal = Dit nummer is niet aangemeld bij deze spraakassistent. Tot ziens.
phone-sorry = Sorry, dat lukte niet. Probeer het zo nog eens.
phone-too-long = Dat was te lang in één keer. Vraag het alstublieft opnieuw, in kortere zinnen.
phone-help-key = Voor hulp drukt u op elk moment op { $key }.
phone-help-keys = Druk op 1 voor ja of op 2 voor nee.
phone-key-star = het sterretje
phone-key-hash = het hekje
