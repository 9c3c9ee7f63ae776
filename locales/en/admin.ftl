### The admin panel: what the operator reads.

## The panel's labels

admin-login-name = Login name
admin-shown-name = Name, as people see it
admin-display-name = Display name
admin-language = Language
admin-web-searches-per-day-0-unlimited = Web searches per day (0 = unlimited)
admin-requests-per-day-empty-global = Requests per day (empty = global)
admin-alarm-cooldown-minutes-empty-global-0 = Alarm cooldown minutes (empty = global, 0 = off)
admin-patience-at-pauses-auto-learned-from = Patience at pauses (auto = learned from the person's pauses; quick, normal, patient, or ms from 200 to 5000)
admin-full-name = Full name
admin-street = Street
admin-postal-code = Postal code
admin-city = City
admin-mobile = Mobile
admin-landline-or-handset-in-the-house = Landline or handset in the house
admin-birth-date = Birth date
admin-medical-notes = Medical notes
admin-contact-e-mails-comma-separated = Contact e-mails (comma-separated)
admin-contact-phones-comma-separated = Contact phones (comma-separated)
admin-daily-check-in-window = Daily check-in window
admin-away-until = Away until
admin-home-assistant-satellite = Home Assistant satellite
admin-reach-by-in-order-page-house = Reach by, in order (page, house_line, phone, home_assistant; empty = the page, else the handset, else the mobile)
admin-what = What
admin-when = When
admin-repeat = Repeat
admin-backend = Backend
admin-model = Model
admin-section = Section
admin-written = Written
admin-spoken = Spoken
admin-admin = Admin
admin-web-search = Web search
admin-may-send-the-location = May send the location
admin-users = Users
admin-create-user = Create user
admin-languages = Languages
admin-pace = Pace
admin-actions = Actions
admin-allowed-languages = Allowed languages
admin-emergency-profile = Emergency profile
admin-care = Care
admin-save-preferences = Save preferences
admin-add-memories = Add memories
admin-reminders = Reminders
admin-set-reminder = Set reminder
admin-check-in-and-care-log = Check-in and care log
admin-channel = Channel
admin-status = Status
admin-detail = Detail
admin-runtime-settings = Runtime settings
admin-key = Key
admin-effective = Effective
admin-override = Override
admin-language-model = Language model
admin-switch-backend = Switch backend
admin-restart-the-gateway = Restart the gateway
admin-pronunciation-lexicon = Pronunciation lexicon
admin-save-entry = Save entry
admin-source = Source
admin-emergency-events = Emergency events
admin-time = Time
admin-category = Category
admin-user = User
admin-confirmed-by = Confirmed by
admin-provider-health = Provider health
admin-stage = Stage
admin-provider = Provider
admin-state = State
admin-last-error = Last error
admin-since = Since
admin-median-p90-ms = Median / p90 ms
admin-errors-last-hour = Errors (last hour)
admin-latency = Latency
admin-stage-last-day = Stage (last day)
admin-median-ms = Median ms
admin-p90-ms = p90 ms
admin-usage = Usage
admin-requests-today = Requests today
admin-this-month = This month
admin-cost-this-month = Cost this month
admin-per-request = Per request
admin-total-cost = Total cost
admin-conversations = Conversations
admin-live-log = Live log
admin-once = once
admin-every-day = daily
admin-every-weekday = every weekday
admin-preset-memories-one-per-line = Preset memories (one per line)
admin-conversation = Conversation
admin-administration = Administration
admin-assistant = Assistant

## What the panel says as it works

admin-done = done
admin-token-of = Token of { $name } (shown once, copy it now):
admin-personal-link = Personal link:
admin-qr-alt = QR code of the personal link of { $name }: scan it with their phone
admin-hide = Hide
admin-edit = Edit
admin-edit-who = Edit { $name }
admin-rename = Rename
admin-rename-who = Rename { $name }
admin-new-token = New token
admin-new-token-for = New token for { $name }
admin-replace-tokens = Replace every token of { $name }? Old links stop working.
admin-remove-admin = Remove admin
admin-make-admin = Make admin
admin-delete = Delete
admin-delete-who = Delete { $name }
admin-delete-confirm = Delete { $name } and all their data?
admin-pace-learned = { $ms } ms, learned ({ $joined } joined)
admin-pace-set = { $ms } ms ({ $setting })
admin-yes = yes
admin-on = on
admin-off = off
admin-preferences-of = Preferences of { $name }
admin-checkin-plan = Check-in { $window } ({ $zone }), next window ends { $ends }, { $state }
admin-not-planned = not planned
admin-away-until-date = away until { $date }
admin-last-sign-of-life = last sign of life { $at }
admin-no-checkin = No daily check-in.
admin-cancel = Cancel
admin-cancel-reminder = Cancel the reminder { $text }
admin-cancel-reminder-confirm = Cancel the reminder “{ $text }”? It will not be delivered any more.
admin-no-reminders = No reminders.
admin-set = Set
admin-reset = Reset
admin-answers-in = { $model } answers in: { $languages }
admin-stage-end-of-turn = End of turn
admin-stage-transcription = Final transcription
admin-stage-first-token = First token
admin-stage-first-sentence = First sentence
admin-stage-first-audio = First audio
admin-chart-label = Median wait per stage, hour by hour; slowest stage: { $stage }
admin-none-yet = none yet
admin-chart-p90 = a line marks the p90 of the whole wait
admin-no-turns = No voice turn in the last day.
admin-turns-summary = { $turns ->
        [one] 1 voice turn
       *[other] { $turns } voice turns
    } in the last day. From the last word to the first answer audio: median { $median } ms, p90 { $p90 } ms. Slowest stage: { $stage }.
admin-whole-wait = Whole wait
admin-working = working
admin-failing = failing
admin-failing-skipped = failing: skipped
admin-failing-retried = failing: being tried again
admin-not-tried = not tried yet
admin-not-reached = not reached yet
admin-tried-again-in = (tried again in { $seconds } s)
admin-check-now = Check now
admin-check-now-of = Check now: { $what }
admin-ended-no-audio = no audio
admin-ended-no-ack = answer never acknowledged
admin-ended-session-expired = session not refreshed
admin-calls-ended = { $calls ->
        [one] 1 call
       *[other] { $calls } calls
    } ended, the other side gone (last: { $reason })
admin-help-reaches-nobody = Help reaches nobody for: { $who }.
admin-links-unset = Help: PUBLIC_URL is not set, so contacts may not open the confirmation links in alarms (they point at { $address } or where the press came from). Please set PUBLIC_URL.
admin-links-local = Help: PUBLIC_URL { $address } is reachable on this machine only; no contact can open the confirmation links. Please set PUBLIC_URL to the address contacts reach the gateway at.
admin-alarms-cannot = Alarms cannot be sent by { $id } right now: { $error }.
admin-care-notices-failing = { $count ->
    [one] A care notice to contacts failed more than once and is being tried again
   *[other] { $count } care notices to contacts failed more than once and are being tried again
}: { $error }
admin-telephone = telephone
admin-telephone-calls = telephone calls
admin-sip-refused = SIP connections refused: { $list }
admin-sip-refused-one = { $address } { $count } ({ $why ->
        [address] beyond its share
       *[door] every place taken
    })
admin-call-outcomes = { $hung_up } hung up by the caller, { $ended } ended by the gateway{ $ended_reason }, { $refused } refused{ $refused_reason }, { $failed } failed
admin-last-reason = {" "}(last: { $reason })
admin-task-failures = { $failures ->
        [one] 1 task failed
       *[other] { $failures } tasks failed
    }, each call ended as a hang-up would (last: { $reason })
admin-not-tried-list = Not tried yet (no call or check has reached them): { $list }.
admin-providers-answer = The configured providers answer.
admin-every-provider-works = Every configured provider works.
admin-failing-list = Failing: { $list }.
admin-addresses-waiting = Too many failed sign-ins, waiting: { $list }.
admin-error-rate = { $percent } % of { $calls }
admin-total = Total
admin-estimated = ({ $amount } estimated)
admin-conversations-of = { $name } ({ $count } conversations)
admin-default = (default)
admin-restart-confirm = Restart the gateway now? Running conversations are cut off.
admin-ready = Ready.
admin-error = Error

## The operator's notice when a channel of the help path starts failing or works again (by e-mail and SMS to
## OPERATOR_NOTICE_TO), in DEFAULT_LANGUAGE.

admin-notice-subject = voice-gateway: the help path changed
# $instance, the gateway's instance; $changes, each change (admin-notice-fails, admin-notice-works) joined by
# semicolons.
admin-notice = voice-gateway { $instance }: the help path changed: { $changes }. See the admin panel's provider health.
# $channel: mail, twilio, webhook or sip; $error, the check's own report (in English, as the log has it).
admin-notice-fails = { $channel } FAILS: { $error }
# $channel: mail, twilio, webhook or sip.
admin-notice-works = { $channel } works again
# Under the banner, per person whose help does not reach everybody: $name, $cause (admin-help-cause).
admin-help-person = { $name }: { $cause }
# The cause ($cause: no_contact, no_channel, channels_failing, some_failing, last_delivery_failed), with $missing
# (admin-missing-…), $channels and $contacts.
admin-help-cause = { $cause ->
    [no_contact] no contact entered (Users, their emergency contacts)
    [no_channel] contacts entered, but no channel reaches them: set up { $missing }
    [channels_failing] every channel of theirs fails its check ({ $channels })
    [some_failing] { $channels } fail their checks
    [last_delivery_failed] their last alarm did not reach { $contacts }
   *[none] help reaches them
}
admin-missing-mail_relay = the mail relay (SMTP_HOST)
admin-missing-sms = SMS (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)
admin-missing-calls = calls (Twilio, or the house line for its own numbers)
admin-help-last-press = their last press reached nobody
# The button that ends a person's cooldown window: $minutes left.
admin-help-end-wait = End the wait ({ $minutes } min left), so that the next press sends at once
admin-help-end-wait-done = Wait of { $name } ended
# After a press, while the person's cooldown window is open: $minutes left.
admin-help-window = a press holds the next one back for { $minutes } min

## The care views: a person's time zone, reminders, check-in and care log, in the reader's language. Codes
## the gateway adds later show as they are (the `*[other]` variants).

admin-time-zone = Time zone (empty = the gateway's)
# Beside a time of the person's when their zone is not the reader's device's: $time, $zone (an IANA name).
admin-in-zone = { $time } ({ $zone })
admin-placeholder-mobile = +49…
admin-placeholder-landline = +49… or 611
admin-placeholder-checkin-window = 08:00-10:00
admin-placeholder-satellite = assist_satellite.kitchen
# A reminder's state: $state.
admin-reminder-state = { $state ->
    [scheduled] scheduled
    [delivering] being delivered, not confirmed yet
    [confirmed] confirmed
    [missed] missed
    [done] done
    [cancelled] cancelled
   *[other] { $state }
}
# The check-in's state: $state.
admin-checkin-state = { $state ->
    [waiting] waiting for the window's end
    [calling] asking the person
   *[other] { $state }
}
# One reminder in the editor's list: $when, $text, $repeat (empty, or how it repeats), $state
# (admin-reminder-state).
admin-reminder-line = { $when } { $text }{ $repeat }: { $state }
# After a reminder's line, its last delivery: $channel (admin-care-channel), $status (admin-care-status).
admin-reminder-last = , last: { $channel }, { $status }
# What a care log row is about: $what (reminder, checkin, notice, alarm), $text (the reminder's text).
admin-care-what = { $what ->
    [reminder] reminder: { $text }
    [checkin] daily check-in
    [notice] care notice
    [alarm] call for help
   *[other] { $what }
}
# A care log row's channel: $channel.
admin-care-channel = { $channel ->
    [page] page
    [house_line] handset in the house
    [phone] mobile
    [home_assistant] Home Assistant
    [mail] e-mail
    [sms] SMS
    [api] page button
    [said] said
    [link] link
    [carer] carer
    [admin] administrator
    [none] –
   *[other] { $channel }
}
# A care log row's status: $status.
admin-care-status = { $status ->
    [delivered] delivered
    [unreachable] not reached
    [held] held back
    [failed] failed
    [confirmed] confirmed
    [answered] answered
    [ok] well
    [away] away
    [missed] missed
    [sent] sent
    [expired] given up
    [no_contacts] nobody to tell
    [acknowledged] looked after
    [told] told later
    [set] changed
   *[other] { $status }
}
admin-note-quiet-hours = quiet hours
admin-note-no-channel = no channel: no page open and no internal number
admin-note-no-page-open = no page or voice connection open
admin-note-not-shown = { $count ->
    [one] 1 connection took it, but did not show it within { $seconds } s
   *[other] { $count } connections took it, none showed it within { $seconds } s
}
admin-note-connections = { $count ->
    [one] 1 connection
   *[other] { $count } connections
}
admin-note-no-landline = no landline or handset number
admin-note-answered-at = answered at { $number }
admin-note-call-slow = the call took too long to set up
admin-note-no-satellite = no Home Assistant satellite
admin-note-announced = announced on { $entity }
admin-note-no-mobile = no mobile number
admin-note-called-mobile = called { $number } through Twilio
admin-note-twilio-slow = Twilio did not answer in time
# $clock, HH:MM in the person's zone.
admin-note-sign-of-life = a sign of life at { $clock }
admin-note-away-until = away until { $date }
admin-note-down-at-window-end = the gateway was not running at { $clock }, when the window ended
admin-note-no-answer = { $count ->
    [one] no answer to 1 question
   *[other] no answer to { $count } questions
}
admin-note-not-confirmed = { $count ->
    [one] not confirmed after 1 delivery
   *[other] not confirmed after { $count } deliveries
}
admin-note-late-while-down = { $minutes } minutes late: the gateway was not running
admin-note-no-mail-contact = the person has no e-mail contact
admin-note-by-carer = by { $carer }
admin-note-by-admin = by { $admin }
# A person's carers, and what they are told (the editor's carers part).
admin-carers = Carers
admin-carers-names = Carers (user names, comma-separated; they see this person's care on their board)
admin-notify-carers = Carers are told what the contacts are told
admin-share-with-carers = Carers may see the list of conversations (never what was said)
admin-own-email = Own e-mail (as a carer: notices and the daily summary)
admin-summary-at = Daily summary at (as a carer; empty = none)
admin-carers-unknown = No such user: { $names }; the carers were not changed

# The gateway's errors in the reader's language: by the field, else by the code (the API's message stays
# English for operators).
admin-error-invalid_request = A value is not valid{ $field ->
        [none] .
       *[other] : { $field }.
    }
admin-error-conflict = That exists already, or it was changed meanwhile.
admin-error-not_found = That does not exist (any more).
admin-error-forbidden = You are not allowed to do that.
admin-error-unauthorized = Please sign in.
admin-error-too_many_attempts = Too many failed attempts from here; please wait a moment.
admin-error-quota_exceeded = Today's quota is used up.
admin-error-busy = That is running already; please wait until it is done.
admin-error-payload_too_large = That is too large.
admin-error-provider_failed = A service does not answer.
admin-error-overloaded = The gateway is busy; please try again in a moment.
admin-error-internal = An error in the gateway; the log has the details.
admin-invalid-name = Login name: 1 to 64 letters, digits or . _ - @, no spaces (or leave it empty to derive it from the name).
admin-invalid-display_name = Name: at most 100 characters on one line.
admin-invalid-emergency_contacts = Contacts: e-mail addresses, separated by commas (e.g. daughter@example.org).
admin-invalid-emergency_contact_phones = Contacts' phone numbers: international (+4930123456) or an internal number (**611), separated by commas.
admin-invalid-phone_mobile = Mobile: international (+491701234567).
admin-invalid-phone_landline = Landline: international (+4930123456) or an internal number (**611).
admin-invalid-birth_date = Date of birth: year-month-day, e.g. 1941-03-15.
admin-invalid-email = E-mail: not a valid address (e.g. anna@example.org).
admin-invalid-carer_summary_at = Summary at: a time such as 18:00, or empty.
admin-invalid-reminder_time = Time for reminders: a time such as 09:00, or empty.
admin-invalid-checkin_window = Check-in: a window such as 08:00-10:00, or empty.
admin-invalid-window = Check-in: a window such as 08:00-10:00, or empty.
admin-invalid-away_until = Away until: a date, or empty.
admin-invalid-timezone = Time zone: a name such as Europe/Berlin.
admin-invalid-time_zone = Time zone: a name such as Europe/Berlin.
admin-invalid-full_name = Full name: too long or on several lines.
admin-invalid-street = Street: too long or on several lines.
admin-invalid-postal_code = Postal code: too long or on several lines.
admin-invalid-city = City: too long or on several lines.
admin-invalid-medical_notes = Medical notes: too long.
admin-invalid-turn_patience = Pace: auto, quick, normal, patient or milliseconds from 200 to 5000.
admin-invalid-emergency_cooldown_minutes = Wait after a call for help: whole minutes from 0 to 60, or empty.
admin-invalid-daily_request_limit = Requests per day: a whole number from 0.
admin-invalid-web_search_daily_limit = Web searches per day: a whole number from 0.
admin-invalid-carers = Carers: only people entered here, and nobody cares for themselves.
admin-invalid-text = Text: must not be empty.
admin-invalid-due_at = When: a date and time in the future.
admin-invalid-repeat = Repeat: daily, on weekdays or weekly; a timer does not repeat.
admin-invalid-reminder_via = Remind via: page, house_line, phone or home_assistant, separated by commas.
