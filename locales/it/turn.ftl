### What a turn says besides the answer.

turn-voice-fallback = La voce scelta, { $voice }, non parla italiano: parla { $speaker } al suo posto.
turn-voice-missing = { $engine } qui non ha una voce italiana: parla { $speaker } al suo posto. Chi gestisce l'assistente può installarne una.
turn-filler = Un attimo, per favore.
turn-speak-again = Non ho capito niente. Per favore, parla di nuovo.
turn-cannot-answer = Il modello linguistico { $model } non parla italiano: la risposta sarà probabilmente in inglese o senza senso. Chi gestisce l'assistente può installare un modello che parla italiano.
turn-closing = Mi fermo qui. Me lo chieda se vuole saperne di più.
turn-search-used-up = La ricerca web è esaurita per oggi: la mia risposta potrebbe non essere aggiornata.
turn-search-off = La ricerca web è disattivata: la mia risposta potrebbe non essere aggiornata.
turn-kept-at-home = Le sue parole restano sulla macchina di questo gateway, e qui nessun modello può ancora rispondere. Chieda a chi gestisce voice-gateway di installare un modello locale, oppure disattivi «Le mie parole restano a casa».
