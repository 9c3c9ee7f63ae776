### What a turn says besides the answer.

turn-voice-fallback = A voz escolhida, { $voice }, não fala português; fala { $speaker } no seu lugar.
turn-voice-missing = { $engine } não tem aqui uma voz em português; fala { $speaker } no seu lugar. Quem gere o assistente pode instalar uma.
turn-filler = Um momento, por favor.
turn-speak-again = Não percebi nada. Por favor, fale outra vez.
turn-cannot-answer = O modelo de linguagem { $model } não fala português: a resposta virá provavelmente em inglês ou sem sentido. Quem gere o assistente pode instalar um modelo que fale português.
turn-closing = Fico por aqui. Pergunte-me se quiser saber mais.
turn-search-used-up = A pesquisa na web esgotou-se por hoje: a minha resposta pode estar desatualizada.
turn-search-off = A pesquisa na web está desligada: a minha resposta pode estar desatualizada.
turn-kept-at-home = As suas palavras ficam na máquina deste gateway, e aqui ainda nenhum modelo lhes pode responder. Peça a quem gere o voice-gateway que instale um modelo local, ou desligue «As minhas palavras ficam em casa».
