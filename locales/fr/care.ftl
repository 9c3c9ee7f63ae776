### Soins : rappels, minuteurs et prise de nouvelles quotidienne, et l'information aux contacts (pas une alerte).

## L'heure et le jour.

# Spoken: "8 heures 5" is read as it is said, "8 h 05" would be read letter by letter.
care-time = { $hour ->
    [1] 1 heure
   *[other] { $hour } heures
}{ $minute ->
    [0] {""}
   *[other] {" "}{ $minute }
}
care-at = à { care-time }
care-weekday = { $day ->
    [1] lundi
    [2] mardi
    [3] mercredi
    [4] jeudi
    [5] vendredi
    [6] samedi
   *[7] dimanche
}
care-weekdays = { $day ->
    [1] le lundi
    [2] le mardi
    [3] le mercredi
    [4] le jeudi
    [5] le vendredi
    [6] le samedi
   *[7] le dimanche
}
care-month = { $month ->
    [1] janvier
    [2] février
    [3] mars
    [4] avril
    [5] mai
    [6] juin
    [7] juillet
    [8] août
    [9] septembre
    [10] octobre
    [11] novembre
   *[12] décembre
}
care-day = { $when ->
    [today] aujourd'hui
    [tomorrow] demain, { $weekday },
    [after-tomorrow] après-demain, { $weekday },
    [this-week] { $weekday }
   *[later] le { $weekday } { $date } { $month },
}
care-every-day = tous les jours
care-every-weekday = du lundi au vendredi
care-on-days = { $days }
care-and = { $first } et { $last }
care-hours = { $count ->
    [one] { $count } heure
   *[other] { $count } heures
}
care-minutes = { $count ->
    [one] { $count } minute
   *[other] { $count } minutes
}
care-seconds = { $count ->
    [one] { $count } seconde
   *[other] { $count } secondes
}
care-of = { $kind ->
   *[other] { $text }
}

## Les réponses.

care-set-once = D'accord, je vous le rappellerai { $day } { $at } : { $what }.
care-set-repeating = D'accord, je vous le rappellerai { $repeats } { $at } : { $what }, la première fois { $day }.
care-skipped = { care-time } n'existe pas ce jour-là, on avance l'heure ; ce sera { $at }.
care-timer = Minuteur lancé : { $length }, jusqu'à { $time }.
care-no-time = Quand dois-je vous le rappeler ? Dites par exemple : demain à 8 h.
care-no-clock = À quelle heure ? Dites par exemple : à neuf heures et demie.
care-passed = Cette heure est déjà passée. Quand dois-je vous le rappeler ?
care-timer-how-long = Combien de temps doit durer le minuteur ?
care-remind-of-what = De quoi dois-je vous faire penser ?
care-item = { $when } { $at } : { $what }
care-list = { $count ->
    [0] Vous n'avez aucun rappel.
    [one] Vous avez un rappel : { $items }.
   *[other] Vous avez { $count } rappels : { $items }.
}
care-timer-stopped = D'accord, le minuteur est arrêté.
care-cancelled = D'accord, le rappel « { $what } » est supprimé.
care-not-found = Je n'ai trouvé aucun rappel correspondant.
care-full = Vous avez déjà { $count } rappels. Veuillez d'abord en supprimer un.

## Quand c'est l'heure.

care-timer-done = Le temps est écoulé : votre minuteur est terminé.
care-due = Rappel : { $text }.
care-done = Merci, c'est fait : { $text }.
care-call-ask = Dites oui ou appuyez sur la touche 1.
care-press-1 = Appuyez sur 1 pour oui.
care-missed-while-down = Pendant que l'assistant était arrêté, votre rappel de { care-time } n'a pas pu être donné : { $text }.

## La prise de nouvelles quotidienne.

care-checkin-question = { $part ->
    [morning] Bonjour !
    [day] Bonjour !
   *[evening] Bonsoir !
} Est-ce que tout va bien ?
care-checkin-thanks = Très bien, cela me fait plaisir. Je vous souhaite une bonne journée.

## L'information aux contacts et sa page de confirmation.

care-notice-not-alarm = Ceci n'est pas une alerte d'urgence.
care-notice-check = Tout va peut-être bien. Veuillez prendre des nouvelles de { $name }.
care-notice-subject = Information (pas une alerte) : { $name } n'a pas confirmé un rappel
care-notice-missed = { $name } n'a pas confirmé le rappel « { $text } » de { $hour } h { $mm }, bien qu'il soit venu { $count } fois.
care-checkin-subject = Information (pas une alerte) : { $name } n'a donné aucun signe de vie aujourd'hui
care-checkin-missed = { $name } n'a donné aucun signe de vie aujourd'hui avant { $time } { $asked ->
    [yes] et n'a pas répondu à la question
   *[no] et n'a pas pu être joint non plus
}.
care-ack-line = Si vous vous en occupez, dites-le ici : { $link }
care-board-line = Vos résidents sur le tableau des soins : { $link }
care-ack-title = Information (pas une alerte)
care-ack-button = Je m'en occupe
care-ack-thanks = Merci. Il est noté que vous vous en occupez.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = réveil
