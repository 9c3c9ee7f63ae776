### Cuidados: lembretes, temporizadores e a pergunta diária, e o aviso aos contactos (não é um alarme).

## A hora e o dia.

# Spoken: "8 horas e 30" is read as it is said, "8h30" would be read letter by letter.
care-time = { $hour ->
    [1] 1 hora
   *[other] { $hour } horas
}{ $minute ->
    [0] {""}
   *[other] {" "}e { $minute }
}
care-at = { $hour ->
    [1] à
   *[other] às
} { care-time }
care-weekday = { $day ->
    [1] segunda-feira
    [2] terça-feira
    [3] quarta-feira
    [4] quinta-feira
    [5] sexta-feira
    [6] sábado
   *[7] domingo
}
care-weekdays = { $day ->
    [1] às segundas-feiras
    [2] às terças-feiras
    [3] às quartas-feiras
    [4] às quintas-feiras
    [5] às sextas-feiras
    [6] aos sábados
   *[7] aos domingos
}
care-month = { $month ->
    [1] janeiro
    [2] fevereiro
    [3] março
    [4] abril
    [5] maio
    [6] junho
    [7] julho
    [8] agosto
    [9] setembro
    [10] outubro
    [11] novembro
   *[12] dezembro
}
care-day = { $when ->
    [today] hoje
    [tomorrow] amanhã, { $weekday },
    [after-tomorrow] depois de amanhã, { $weekday },
    [this-week] na { $weekday }
   *[later] na { $weekday }, { $date } de { $month },
}
care-every-day = todos os dias
care-every-weekday = nos dias úteis
care-on-days = { $days }
care-and = { $first } e { $last }
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

## As respostas.

care-set-once = Está bem, vou lembrá-lo { $day } { $at }: { $what }.
care-set-repeating = Está bem, vou lembrá-lo { $repeats } { $at }: { $what }, a primeira vez { $day }.
care-skipped = As { care-time } não existem nesse dia, os relógios adiantam-se; será { $at }.
care-timer = Temporizador ligado: { $length }, até { $time }.
care-no-time = Quando devo lembrá-lo? Diga, por exemplo: amanhã às 8h.
care-no-clock = A que horas? Diga, por exemplo: às nove e meia.
care-passed = Essa hora já passou. Quando devo lembrá-lo?
care-timer-how-long = Quanto tempo deve durar o temporizador?
care-remind-of-what = De que devo lembrá-lo?
care-item = { $when } { $at }: { $what }
care-list = { $count ->
    [0] Não tem lembretes.
    [one] Tem um lembrete: { $items }.
   *[other] Tem { $count } lembretes: { $items }.
}
care-timer-stopped = Está bem, o temporizador está parado.
care-cancelled = Está bem, o lembrete «{ $what }» foi apagado.
care-not-found = Não encontrei nenhum lembrete assim.
care-full = Já tem { $count } lembretes. Por favor, apague primeiro um.

## Quando chega a hora.

care-timer-done = O tempo acabou: o seu temporizador terminou.
care-due = Lembrete: { $text }.
care-done = Obrigado, feito: { $text }.
care-call-ask = Diga sim ou carregue no 1.
care-press-1 = Carregue no 1 para sim.
care-missed-while-down = Enquanto o assistente não estava a funcionar, perdeu-se o seu lembrete das { care-time }: { $text }.

## A pergunta diária.

care-checkin-question = { $part ->
    [morning] Bom dia!
    [day] Boa tarde!
   *[evening] Boa noite!
} Está tudo bem?
care-checkin-thanks = Ainda bem, fico contente. Desejo-lhe um bom dia.

## O aviso aos contactos e a sua página de confirmação.

care-notice-not-alarm = Isto não é um alarme de emergência.
care-notice-check = Talvez esteja tudo bem. Por favor, contacte { $name }.
care-notice-subject = Aviso (não é um alarme): { $name } não confirmou um lembrete
care-notice-missed = { $name } não confirmou o lembrete «{ $text }» das { $hour }h{ $mm }, embora tenha chegado { $count ->
    [one] uma vez
   *[other] { $count } vezes
}.
care-checkin-subject = Aviso (não é um alarme): { $name } não deu sinal de vida hoje
care-checkin-missed = { $name } não deu sinal de vida hoje até às { $time } { $asked ->
    [yes] e não respondeu à pergunta
   *[no] e também não foi possível contactá-lo
}.
care-ack-line = Se for tratar disto, diga-o aqui: { $link }
care-board-line = Os seus residentes no painel de cuidados: { $link }
care-ack-title = Aviso (não é um alarme)
care-ack-button = Eu trato disto
care-ack-thanks = Obrigado. Fica registado que vai tratar disto.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = despertador
