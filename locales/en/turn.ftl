### What a turn says besides the answer.

# Told once before spoken answers when the voice the person chose cannot speak the language: $voice, that voice;
# $speaker, the engine that speaks instead.
turn-voice-fallback = The voice you chose, { $voice }, does not speak English, so { $speaker } speaks instead.
# Told once before spoken answers when nobody chose a voice and the engine has none for the language: $engine, that
# engine; $speaker, the one that speaks instead.
turn-voice-missing = { $engine } has no English voice here, so { $speaker } speaks instead. Whoever runs the assistant can add one.
# The reassuring phrase said while the answer's first words are slow to come.
turn-filler = One moment, please.
# The request to speak again after nothing was understood.
turn-speak-again = I didn't catch anything. Please say it again.
# Told before the answer when the model does not answer in the person's language: $model, its name.
turn-cannot-answer = The language model { $model } does not answer in this language: the answer will probably be in another one or make no sense. Whoever runs the assistant can set up a model that speaks it.
# Said when an answer was cut short (too long, or repeating itself).
turn-closing = I'll stop here. Ask me if you would like to know more.
# Told before an answer to a question about today when the person's web searches for the day are used up.
turn-search-used-up = Today's web searches are used up, so my answer may be out of date. Searching works again tomorrow.
# Told before an answer to a question about today while web search is switched off.
turn-search-off = Web search is switched off, so my answer may be out of date.
# The answer instead of sending a person's words out, when they keep their words at home and no local engine is set up for a stage.
turn-kept-at-home = Your words stay on this gateway's own machine, and no model here can answer them yet. Ask the person who runs voice-gateway to set up a local model, or switch off "Keep my words at home".
