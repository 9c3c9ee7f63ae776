### What the telephone lines say by themselves.

phone-greeting-named = Olá, { $name }. Como posso ajudar?
phone-greeting = Olá. Como posso ajudar?
phone-goodbye = Adeus.
phone-silence = Já não ouço nada, por isso vou desligar. Ligue quando quiser. Adeus.
phone-refusal = Este número não está autorizado para este assistente de voz. Adeus.
phone-sorry = Desculpe, não funcionou. Tente outra vez daqui a pouco.
phone-too-long = Foi demasiado longo de uma vez. Pergunte outra vez, por favor, em frases mais curtas.
