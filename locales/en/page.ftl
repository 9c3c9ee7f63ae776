### The page's labels and messages (the assistant's page in the browser).

page-settings = Settings
page-device-speech-hint = Answers in this device's own voice
page-large-text = Large text
page-pace = When I pause
page-pace-auto = Learn my pace
page-pace-quick = Answer quickly
page-pace-normal = Wait a moment
page-pace-patient = Wait for me
page-auto-voice = Automatic: { $voice }
page-auto-voice-plain = Automatic
page-needs-https = The microphone works only on the secure address.
page-open-secure = Open the secure address
page-trust-device = Set up this device first
page-needs-tls = The microphone works only on a secure (https) address, which this assistant does not offer yet. Ask the person who runs it to switch on HTTPS (the setting TLS=auto).
page-mic-denied = You did not allow the microphone. Allow it in the browser's site settings (the icon next to the address), then press Speak again.
page-language = Language
page-voice = Voice
page-device-speech = Speak on this device
page-logout = Sign out
page-question = Your question
page-type-here = Type your question
page-send = Send
page-speak = Speak
page-stop = Stop
page-new-conversation = New conversation
page-delete-conversation = Delete conversation
page-memories = What the assistant remembers
page-add-memory = Add
page-new-memory = Something to remember
page-help = Help
page-help-confirm = Call for help now? Your contact persons will be alerted.
# The help dialog while help reaches nobody: the 112 advice first, no promise of an alert.
page-help-confirm-unreachable = In an emergency, call 112 yourself: your help reaches nobody right now. Alert your contacts anyway?
page-help-yes = Yes, alert them
page-cancel = Cancel
page-sending = Sending the alarm…
page-listening = Listening… just speak.
page-thinking = Thinking…
page-heard = You said
page-ready = Ready.
page-quota = The daily limit is reached. It starts again at midnight.
page-provider-failed = The assistant could not answer right now. Please try again in a moment.
# Too many people are talking to the assistant at once.
page-busy = The assistant is busy. Please try again in a moment.
# The microphone sent nothing before the person let go.
page-not-heard = Nothing was heard. Please say it again.
# The person spoke longer than the gateway takes at once (MAX_UTTERANCE_SECONDS).
page-too-long = That was too long to take in at once. Please say it again in shorter sentences.
page-lost = The connection was lost. Reconnecting…
# A page that lost the gateway (its event stream, or the gateway itself) since $time (the last contact, hours and minutes).
page-offline-since = No connection since { $time } – what is shown may be out of date
page-reconnected = Connected again.
page-no-mic = The microphone cannot be used here. Please allow it, or type your question.
page-sources = Sources
page-cooldown = The alarm was raised a moment ago.
page-confirm-delete = Delete this conversation?
page-seen-by = Seen and confirmed by { $who }.
page-error = Something went wrong
page-guest = Guest
page-admin = Administration
page-reminders = Reminders
page-reminder = Reminder
page-reminder-done = Done
page-reminder-ok = OK
page-reminder-delete = Delete
page-reminder-deleted = Reminder “{ $text }” deleted.
page-undo = Undo
page-repeat-daily = daily { $time }
page-repeat-weekdays = weekdays { $time }
page-repeat-weekly = every { $weekday } { $time }
page-repeat-other = repeats
page-timer-over = Time is up.
page-no-reminders = No reminders.
page-checkin-title = Daily check-in
page-checkin-question = Is everything all right?
page-checkin-fine = I am fine
page-checkin-help = I need help
page-reminder-missed = Missed while the assistant was not running

## The sign-in pages (the browser's language)
# A personal link opened in a browser signed in as somebody else: $current (who is signed in), $new (the link's person).
page-signin-switch = You are signed in as { $current } in this browser. Continue as { $new }?
# Its buttons.
page-signin-switch-yes = Continue as { $new }
# See page-signin-switch-yes.
page-signin-switch-no = Stay { $current }
# The sign-in page, for a personal link that is not (or no longer) valid.
page-signin-invalid-link = This personal link is not valid (any more). Ask for a new one.
# The sign-in page, for a browser that is not signed in.
page-signin-no-access = You have no personal access yet.
# The sign-in page's button.
page-signin-button = Sign in
# Under the message of a page without a sign-in button (markup kept as it is).
page-signin-api = The API is described at <a href="/openapi.json">/openapi.json</a>.
# At /admin, for someone signed in who is not an admin (markup kept as it is).
page-signin-not-admin = The admin panel is for the people who run voice-gateway, and you are signed in as someone else. <a href="/">Back to the assistant</a>. If you run it, open your own admin link (in <code>admin-link.txt</code> beside the database) once in this browser.
# A personal link opened over plain http from another machine (markup kept as it is).
page-signin-insecure-link = This personal link cannot sign you in at this address: browsers keep the sign-in only on a secure (https) address or on the gateway's own machine, and this address is plain http. Ask the person who runs voice-gateway to switch on HTTPS (the setting <code>TLS=auto</code>, explained under "Phones and tablets" in its README), then open your link on the https address it names. The microphone needs that address too.
# At /login without a single-sign-on proxy: how to get in (markup kept as it is).
page-signin-how = Signing in by name needs a single-sign-on proxy in front of voice-gateway, and this installation has none. Instead, each person has a personal link (it ends in <code>/?k=</code> and a long code): ask the person who runs voice-gateway for yours and open it once on each of your devices; they stay signed in. The person who runs it finds their own link in <code>admin-link.txt</code> beside the database and makes links for others in the admin panel.
page-cared-for-by = Cared for by { $names }
page-notify-carers = Tell them too when I call for help or leave a reminder unconfirmed
page-share-with-carers = They may see the list of my conversations (never what was said)
# The menu's section about the person's own data.
page-my-data = My data
# A link that downloads everything the gateway keeps about the person, as a ZIP archive.
page-export = Download my data
# Opens the list of who else (carers, administrators) looked at the person's records.
page-access-title = Who has seen my records
# The list above when nobody else looked.
page-access-none = Nobody besides you yet.
# After a reader's name in that list, when the reader is one of the person's carers.
page-access-carer = carer
# What a reader looked at, in that list (the carers' board's view of the person's day).
page-access-day = my day
# See page-access-day.
page-access-care_log = my care log
# See page-access-day.
page-access-reminders = my reminders
# See page-access-day.
page-access-conversations = my conversations
# See page-access-day.
page-access-export = all my data
# See page-access-day.
page-access-profile = my details
# See page-access-day.
page-access-memories = what the assistant remembers
# The title of summary.html in the archive of a person's data.
export-title = My data at voice-gateway
# Its first line. Offered: $name (the person), $date (when the archive was made).
export-intro = Everything voice-gateway keeps about { $name }, as of { $date }.
# What the archive's files are.
export-files = Each file in the folder tables holds the rows of one table as JSON, readable by any program.
# A column heading of its table of files.
export-file = File
# The other column heading: how many rows a file holds.
export-rows = Rows
# What the archive leaves out, and why.
export-withheld = Left out: the codes of personal and confirmation links, which are secret.
# A switch in the menu: the person's words go only to engines on the gateway's machine or network.
page-local-only = Keep my words at home
# Under that switch: what it does.
page-local-only-hint = Only engines on this gateway's machine or its network hear and answer me; no web search.
# A line in the menu saying where the person's words go, stage by stage.
page-words-go = Where my words go
# In that line: a stage that runs on the gateway's machine or network.
page-words-here = here
# In that line: a stage that runs at a provider outside. Offered: $provider.
page-words-outside = outside: { $provider }
# The line itself. Offered: $stt, $llm, $tts, $search (each a place as above).
page-words-stages = Recognition: { $stt }. Answers: { $llm }. Voice: { $tts }. Search: { $search }.
# In that line when the person's turns do not search the web.
page-words-no-search = none
