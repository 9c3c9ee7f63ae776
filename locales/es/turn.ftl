### What a turn says besides the answer.

turn-voice-fallback = La voz elegida, { $voice }, no habla español: habla { $speaker } en su lugar.
turn-voice-missing = { $engine } no tiene aquí una voz en español: habla { $speaker } en su lugar. Quien administra el asistente puede instalar una.
turn-filler = Un momento, por favor.
turn-speak-again = No he entendido nada. Por favor, habla otra vez.
turn-cannot-answer = El modelo de lenguaje { $model } no habla español: la respuesta probablemente llegará en inglés o no tendrá sentido. Quien administra el asistente puede instalar un modelo que hable español.
turn-closing = Lo dejo aquí. Pregúnteme si quiere saber más.
turn-search-used-up = La búsqueda web se ha agotado por hoy: mi respuesta puede estar desactualizada.
turn-search-off = La búsqueda web está desactivada: mi respuesta puede estar desactualizada.
turn-kept-at-home = Sus palabras se quedan en el propio equipo de este gateway, y aquí ningún modelo puede responderlas todavía. Pida a quien gestiona voice-gateway que instale un modelo local, o desactive «Mis palabras se quedan en casa».
