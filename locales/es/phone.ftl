### What the telephone lines say by themselves.

phone-greeting-named = Hola, { $name }. ¿En qué puedo ayudarte?
phone-greeting = Hola. ¿En qué puedo ayudarte?
phone-goodbye = Adiós.
phone-silence = Ya no oigo nada, así que voy a colgar. Llama cuando quieras. Adiós.
phone-refusal = Este número no está autorizado para este asistente de voz. Adiós.
phone-sorry = Lo siento, no ha funcionado. Inténtalo de nuevo en un momento.
phone-too-long = Eso fue demasiado largo de una vez. Pregunta otra vez, por favor, con frases más cortas.
phone-help-key = Para pedir ayuda, pulse { $key } en cualquier momento.
phone-help-keys = Pulse 1 para sí o 2 para no.
phone-key-star = la tecla asterisco
phone-key-hash = la tecla almohadilla
