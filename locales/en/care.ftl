### Care: reminders, timers and the daily check-in, said back to the person, and the care notice to their
### contacts (clearly not an alarm).
###
### Messages with a time of day are offered its parts; each may be used or left out: $hour (0–23), $hour12
### (1–12), $half (am or pm), $minute (0–59), $mm (the minute in two digits).

## The time and the day, as the answers put them.

# A time of day: "8 am", "8:30 pm". Offered: $hour $hour12 $half $minute $mm.
care-time = { $minute ->
    [0] { $hour12 } { $half }
   *[other] { $hour12 }:{ $mm } { $half }
}
# A time of day in a sentence: "at 8 am". Offered: $hour $hour12 $half $minute $mm.
care-at = at { care-time }
# A weekday's name: $day, 1 (Monday) to 7 (Sunday).
care-weekday = { $day ->
    [1] Monday
    [2] Tuesday
    [3] Wednesday
    [4] Thursday
    [5] Friday
    [6] Saturday
   *[7] Sunday
}
# A weekday that repeats: $day, 1 (Monday) to 7 (Sunday).
care-weekdays = { $day ->
    [1] Mondays
    [2] Tuesdays
    [3] Wednesdays
    [4] Thursdays
    [5] Fridays
    [6] Saturdays
   *[7] Sundays
}
# A month's name: $month, 1 to 12.
care-month = { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
}
# The day of a reminder seen from today: $when is today, tomorrow, after-tomorrow, this-week (3 to 6 days
# ahead) or later; $weekday its name, $date the day of the month, $month the month's name. A trailing comma
# closes an apposition ("tomorrow, Saturday, at 8 am"); one before a full stop is dropped.
care-day = { $when ->
    [today] today
    [tomorrow] tomorrow, { $weekday },
    [after-tomorrow] the day after tomorrow, { $weekday },
    [this-week] on { $weekday }
   *[later] on { $weekday }, { $date } { $month },
}
# How often a reminder repeats.
care-every-day = every day
care-every-weekday = every weekday
# On some weekdays: $days, the weekdays (care-weekdays) listed.
care-on-days = on { $days }
# The end of a list: $first, the items before the last joined by commas; $last, the last.
care-and = { $first } and { $last }
# A length of time, in parts joined by care-and: $count of each.
care-hours = { $count ->
    [one] { $count } hour
   *[other] { $count } hours
}
care-minutes = { $count ->
    [one] { $count } minute
   *[other] { $count } minutes
}
care-seconds = { $count ->
    [one] { $count } second
   *[other] { $count } seconds
}
# How the reminder's own words ($text, turned to the person: "my" → "your") join a sentence. $kind: thing
# ("your pills"), action ("water the plants"), infinitive (German "die Blumen zu gießen") or other.
care-of = { $kind ->
    [thing] about { $text }
   *[other] to { $text }
}

## The answers to a request.

# A reminder set once: $day (care-day), $at (care-at), $what (care-of).
care-set-once = OK, I'll remind you { $day } { $at } { $what }.
# A reminder set to repeat: $repeats (care-every-day, care-every-weekday or care-on-days), $at, $what, and
# $day, the first time.
care-set-repeating = OK, I'll remind you { $repeats } { $at } { $what }, first { $day }.
# Added when the time asked for does not exist that day: the time asked for, and $at, the time it will be.
# Offered: $hour $hour12 $half $minute $mm.
care-skipped = { $hour }:{ $mm } does not exist that day, the clocks go forward; it will be { $at }.
# A timer set: $length (care-hours, care-minutes, care-seconds) and $time, when it ends (care-time).
care-timer = Timer set: { $length }, until { $time }.
care-no-time = When shall I remind you? Say, for example: tomorrow at 8 am.
care-no-clock = At what time? Say, for example: at half past nine.
care-passed = That time has passed. When shall I remind you?
care-timer-how-long = How long shall the timer run?
care-remind-of-what = What shall I remind you of?
# One reminder in a list: $when (a day, or how it repeats), $at, $what.
care-item = { $when } { $at } { $what }
# The reminders waiting: $count of them, $items (care-item) joined by semicolons.
care-list = { $count ->
    [0] You have no reminders.
    [one] You have one reminder: { $items }.
   *[other] You have { $count } reminders: { $items }.
}
care-timer-stopped = OK, the timer is stopped.
# $what (care-of).
care-cancelled = OK, the reminder { $what } is cancelled.
care-not-found = I found no reminder like that.
# When the person has as many reminders waiting as they may: $count.
care-full = You have { $count ->
    [one] { $count } reminder
   *[other] { $count } reminders
} already. Please cancel one first.

## When it is time.

care-timer-done = Time is up: your timer has finished.
# A reminder due: $text, its words turned to the person.
care-due = Reminder: { $text }.
# The thanks for a reminder confirmed: $text.
care-done = Thank you, done: { $text }.
# On a call, after the words: how to answer.
care-call-ask = Say yes or press 1.
# On a call, after the help function's question: how to say yes by key.
care-press-1 = Press 1 for yes.
# A reminder missed while the gateway was down, told at the next contact: $text, and $at when it was due.
# Offered: $at $hour $hour12 $half $minute $mm.
care-missed-while-down = While the assistant was not running, your reminder { $at } was missed: { $text }.

## The daily check-in.

# The question, greeting by the time of day: $part is morning, day or evening.
care-checkin-question = { $part ->
    [morning] Good morning!
    [day] Hello!
   *[evening] Good evening!
} Is everything all right?
care-checkin-thanks = Good to hear. Have a good day.

## The care notice to the contacts (e-mail and SMS) and its acknowledgement page.

# The first line of every notice.
care-notice-not-alarm = This is not an emergency alarm.
# The last line of every notice: $name, the person's.
care-notice-check = All may be well. Please check on { $name }.
# The subject of a notice of a reminder not confirmed: $name.
care-notice-subject = Notice (not an alarm): { $name } did not confirm a reminder
# A reminder not confirmed: $name, $text (the reminder's words as set), $at when it was due, $count how often
# it came. Offered: $at $hour $hour12 $half $minute $mm.
care-notice-missed = { $name } did not confirm the reminder "{ $text }" { $at }, though it came { $count ->
    [one] once
   *[other] { $count } times
}.
# The subject of a notice of a check-in without a sign of life: $name.
care-checkin-subject = Notice (not an alarm): { $name } has not checked in today
# A check-in without a sign of life: $name, $time the check-in ended (care-time), $asked yes (the question
# reached them) or no. Offered: $time $hour $hour12 $half $minute $mm.
care-checkin-missed = { $name } has not checked in today by { $time } { $asked ->
    [yes] and did not answer when asked
   *[no] and could not be reached either
}.
# The line with the acknowledgement link: $link.
care-ack-line = If you are looking after it, say so here: { $link }
care-board-line = Your residents on the care board: { $link }
care-ack-title = Notice (not an alarm)
care-ack-button = I am looking after it
care-ack-thanks = Thank you. It is noted that you are looking after it.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = alarm
