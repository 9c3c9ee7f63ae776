### What a turn says besides the answer.

turn-voice-fallback = De gekozen stem, { $voice }, spreekt geen Nederlands; { $speaker } spreekt in de plaats.
turn-voice-missing = { $engine } heeft hier geen Nederlandse stem; { $speaker } spreekt in de plaats. Wie de assistent beheert, kan er een installeren.
turn-filler = Een ogenblik, alstublieft.
turn-speak-again = Ik heb niets verstaan. Wil je het nog eens zeggen?
turn-cannot-answer = Het taalmodel { $model } spreekt geen Nederlands: het antwoord komt waarschijnlijk in het Engels of slaat nergens op. Wie de assistent beheert, kan een model installeren dat Nederlands spreekt.
turn-closing = Ik stop hier. Vraag het me als u meer wilt weten.
turn-search-used-up = Het zoeken op internet is voor vandaag op: mijn antwoord kan verouderd zijn.
turn-search-off = Zoeken op internet staat uit: mijn antwoord kan verouderd zijn.
turn-kept-at-home = Uw woorden blijven op de eigen computer van deze gateway, en hier kan nog geen model ze beantwoorden. Vraag degene die voice-gateway beheert een lokaal model in te stellen, of zet „Mijn woorden blijven thuis” uit.
