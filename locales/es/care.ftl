### Cuidados: recordatorios, temporizadores y la pregunta diaria, y el aviso a los contactos (no es una alarma).

## La hora y el día.

care-time = { $minute ->
    [0] { $hour }:00
   *[other] { $hour }:{ $mm }
}
care-at = { $hour ->
    [1] a la
   *[other] a las
} { care-time }
care-weekday = { $day ->
    [1] lunes
    [2] martes
    [3] miércoles
    [4] jueves
    [5] viernes
    [6] sábado
   *[7] domingo
}
care-weekdays = { $day ->
    [1] lunes
    [2] martes
    [3] miércoles
    [4] jueves
    [5] viernes
    [6] sábados
   *[7] domingos
}
care-month = { $month ->
    [1] enero
    [2] febrero
    [3] marzo
    [4] abril
    [5] mayo
    [6] junio
    [7] julio
    [8] agosto
    [9] septiembre
    [10] octubre
    [11] noviembre
   *[12] diciembre
}
care-day = { $when ->
    [today] hoy
    [tomorrow] mañana, { $weekday },
    [after-tomorrow] pasado mañana, { $weekday },
    [this-week] el { $weekday }
   *[later] el { $weekday } { $date } de { $month },
}
care-every-day = todos los días
care-every-weekday = de lunes a viernes
care-on-days = los { $days }
care-and = { $first } y { $last }
care-hours = { $count ->
    [one] { $count } hora
   *[other] { $count } horas
}
care-minutes = { $count ->
    [one] { $count } minuto
   *[other] { $count } minutos
}
care-seconds = { $count ->
    [one] { $count } segundo
   *[other] { $count } segundos
}
care-of = { $kind ->
   *[other] { $text }
}

## Las respuestas.

care-set-once = De acuerdo, se lo recordaré { $day } { $at }: { $what }.
care-set-repeating = De acuerdo, se lo recordaré { $repeats } { $at }: { $what }, la primera vez { $day }.
care-skipped = Las { $hour }:{ $mm } no existen ese día, se adelantan los relojes; será { $at }.
care-timer = Temporizador en marcha: { $length }, hasta las { $time }.
care-no-time = ¿Cuándo se lo recuerdo? Diga, por ejemplo: mañana a las 8.
care-no-clock = ¿A qué hora? Diga, por ejemplo: a las nueve y media.
care-passed = Esa hora ya ha pasado. ¿Cuándo se lo recuerdo?
care-timer-how-long = ¿Cuánto tiempo debe durar el temporizador?
care-remind-of-what = ¿Qué quiere que le recuerde?
care-item = { $when } { $at }: { $what }
care-list = { $count ->
    [0] No tiene recordatorios.
    [one] Tiene un recordatorio: { $items }.
   *[other] Tiene { $count } recordatorios: { $items }.
}
care-timer-stopped = De acuerdo, el temporizador está parado.
care-cancelled = De acuerdo, el recordatorio «{ $what }» está borrado.
care-not-found = No he encontrado ningún recordatorio así.
care-full = Ya tiene { $count } recordatorios. Por favor, borre uno primero.

## Cuando llega la hora.

care-timer-done = Se acabó el tiempo: su temporizador ha terminado.
care-due = Recordatorio: { $text }.
care-done = Gracias, hecho: { $text }.
care-call-ask = Diga sí o pulse el 1.
care-press-1 = Pulse el 1 para decir sí.
care-missed-while-down = Mientras el asistente no funcionaba, se perdió su recordatorio de las { $hour }:{ $mm }: { $text }.

## La pregunta diaria.

care-checkin-question = { $part ->
    [morning] ¡Buenos días!
    [day] ¡Buenas tardes!
   *[evening] ¡Buenas noches!
} ¿Va todo bien?
care-checkin-thanks = Me alegro mucho. Que tenga un buen día.

## El aviso a los contactos y su página de confirmación.

care-notice-not-alarm = Esto no es una alarma de emergencia.
care-notice-check = Puede que todo esté bien. Por favor, póngase en contacto con { $name }.
care-notice-subject = Aviso (no es una alarma): { $name } no ha confirmado un recordatorio
care-notice-missed = { $name } no ha confirmado el recordatorio «{ $text }» de las { $hour }:{ $mm }, aunque llegó { $count ->
    [one] una vez
   *[other] { $count } veces
}.
care-checkin-subject = Aviso (no es una alarma): { $name } no ha dado señales de vida hoy
care-checkin-missed = { $name } no ha dado señales de vida hoy antes de las { $time } { $asked ->
    [yes] y no respondió cuando se le preguntó
   *[no] y tampoco se le pudo localizar
}.
care-ack-line = Si usted se ocupa, dígalo aquí: { $link }
care-board-line = Sus residentes en el panel de cuidados: { $link }
care-ack-title = Aviso (no es una alarma)
care-ack-button = Yo me ocupo
care-ack-thanks = Gracias. Queda anotado que usted se ocupa.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = despertador
