### What a turn says besides the answer.

turn-voice-fallback = Die gewählte Stimme { $voice } spricht kein Deutsch, darum spricht { $speaker }.
turn-voice-missing = { $engine } hat hier keine deutsche Stimme, darum spricht { $speaker }. Wer den Assistenten betreibt, kann eine einrichten.
turn-filler = Einen Moment, bitte.
turn-speak-again = Ich habe nichts verstanden. Bitte sprich noch einmal.
turn-cannot-answer = Das Sprachmodell { $model } kann kein Deutsch: Die Antwort kommt wohl auf Englisch oder ergibt keinen Sinn. Wer den Assistenten betreibt, kann ein Modell einrichten, das Deutsch kann.
turn-closing = Ich höre hier auf. Fragen Sie gern nach, wenn Sie mehr wissen möchten.
turn-search-used-up = Die Websuche ist für heute aufgebraucht. Meine Antwort kann daher veraltet sein; morgen geht es wieder.
turn-search-off = Die Websuche ist ausgeschaltet. Meine Antwort kann daher veraltet sein.
turn-kept-at-home = Ihre Worte bleiben auf dem Rechner dieses Gateways, und hier kann noch kein Modell sie beantworten. Bitten Sie die Person, die voice-gateway betreibt, ein lokales Modell einzurichten, oder schalten Sie „Meine Worte bleiben zu Hause“ aus.
