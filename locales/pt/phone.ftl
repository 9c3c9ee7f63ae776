### What the telephone lines say by themselves.

phone-greeting-named = Olá, { $name }. Como posso ajudar?
phone-greeting = Olá. Como posso ajudar?
phone-goodbye = Adeus.
phone-silence = Já não ouço nada, por isso vou desligar. Ligue quando quiser. Adeus.
phone-refusal = Este número não está autorizado para este assistente de voz. Adeus.
phone-sorry = Desculpe, não funcionou. Tente outra vez daqui a pouco.
phone-too-long = Foi demasiado longo de uma vez. Pergunte outra vez, por favor, em frases mais curtas.
phone-help-key = Para pedir ajuda, prima { $key } a qualquer momento.
phone-help-keys = Prima 1 para sim ou 2 para não.
phone-key-star = a tecla asterisco
phone-key-hash = a tecla cardinal
