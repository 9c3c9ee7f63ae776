### What the telephone lines say by themselves.

phone-greeting-named = Ciao { $name }. Come posso aiutarti?
phone-greeting = Ciao. Come posso aiutarti?
phone-goodbye = Arrivederci.
phone-silence = Non sento più niente, quindi riattacco. Richiama quando vuoi. Arrivederci.
phone-refusal = Questo numero non è abilitato per questo assistente vocale. Arrivederci.
phone-sorry = Mi dispiace, non ha funzionato. Riprova tra un momento.
phone-too-long = Era troppo lungo tutto d'un fiato. Chiedi di nuovo, per favore, con frasi più brevi.
phone-help-key = Per chiedere aiuto, prema { $key } in qualsiasi momento.
phone-help-keys = Prema 1 per sì o 2 per no.
phone-key-star = il tasto asterisco
phone-key-hash = il tasto cancelletto
