### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

# Answer: at least one person was reached.
help-alerted = Help is on the way: your contacts have been notified.
# Answer: nobody can be told; $cause says why (help-cause-…).
help-no-recipients = Your help reaches nobody yet: { $cause } Please call the emergency number 112 yourself.
# Answer: every channel tried failed.
help-delivery-failed = The notification failed. Please call the emergency number 112 yourself.
# Answer inside the window, the alarm reached people: $minutes, $who.
help-cooldown-reached = The alarm was raised { $minutes ->
        [one] a minute
       *[other] { $minutes } minutes
    } ago and reached { $who }. If it is urgent, call the emergency number 112.
# Answer inside the window, the alarm reached nobody: $minutes ago, a new alarm in $left minutes.
help-cooldown-nobody = The alarm of { $minutes ->
        [one] a minute
       *[other] { $minutes } minutes
    } ago reached nobody. A new alarm can be sent in { $left ->
        [one] a minute
       *[other] { $left } minutes
    }; whoever looks after the assistant can end this wait sooner. Please call the emergency number 112 yourself.
# Answer while the window's alarm is still being sent.
help-cooldown-sending = The alarm is being sent right now. If it is urgent, call the emergency number 112.
# Added when contacts confirmed having seen the alarm: $who.
help-seen-by = Seen and confirmed by { $who }.
# Channel names in a list of who was reached.
help-by-email = e-mail
# See help-by-email.
help-by-sms = SMS
# See help-by-email.
help-by-call = call
# E-mail subject: $name.
help-subject = EMERGENCY: { $name } asked for help { help-how }
# E-mail subject of the escalation: $name.
help-reminder-subject = REMINDER – EMERGENCY: nobody has confirmed the alarm of { $name } yet
# First line of the e-mail: $name.
help-intro = { $name } asked for help through the voice assistant, { help-how }. Please get in touch at once or send help.
# First line of the escalation e-mail: $name, $minutes.
help-reminder-intro = Nobody has confirmed this alarm yet. { $name } asked for help { $minutes ->
        [one] a minute
       *[other] { $minutes } minutes
    } ago through the voice assistant. Please get in touch at once or send help.
# The acknowledgement link in the e-mail: $link.
help-confirm-line = Please confirm that you have seen this alarm: { $link }
# Dossier label.
help-name = Name
# Dossier label.
help-address = Address
# Dossier label.
help-phone = Phone
# Dossier label.
help-birth-date = Date of birth
# Dossier label.
help-medical-notes = Medical notes
# Dossier label.
help-coordinates = Coordinates
# Dossier label.
help-map = Map
# Dossier label.
help-accuracy = Accuracy
# Dossier label.
help-fix-time = Time of the fix
# Dossier label, followed by the device's reason.
help-position-unavailable = Position unavailable
# Dossier line when the person did not consent to sharing the position.
help-position-not-shared = Position: not shared (no consent)
# Dossier label.
help-triggered-from = Triggered from
# A field without a value.
help-unknown = unknown
# Medical notes without a value.
help-none = none
# The device gave neither a position nor a reason.
help-not-reported = not reported
# Device kind.
help-mobile-device = mobile device
# Device kind.
help-computer = computer
# Device kind.
help-unknown-device = unknown device
# Last line of the e-mail.
help-call-112 = If you cannot help, call the emergency number 112.
# The SMS: $name, $address, $phones.
help-sms = EMERGENCY: { $name } needs help. Address: { $address }. Phone: { $phones }.
# The escalation SMS: $name, $address, $phones.
help-sms-reminder = REMINDER, nobody has confirmed yet. EMERGENCY: { $name } needs help. Address: { $address }. Phone: { $phones }.
# Appended to the SMS: $link (map).
help-sms-location = Location: { $link }
# Appended to the SMS: $link (acknowledgement).
help-sms-confirm = Seen it? Confirm: { $link }
# The call: $name, $address.
help-call = Attention, emergency. { $name } asked for help { help-how }. Address: { $address }. Details are in the text message and the e-mail.
# Said before the call text of an escalation.
help-call-reminder = Reminder: nobody has confirmed this emergency yet.
# The call asks for the key press.
help-call-press-1 = Press 1 to confirm that you have seen this alarm.
# Said after the callee pressed 1: $name.
help-call-thanks = Thank you. { $name } can now see that you have seen the alarm.
# Title of the acknowledgement page.
help-ack-title = Emergency alarm
# The page before confirming: $name, $time.
help-ack-question = { $name } asked for help { help-how } at { $time }.
# The page's button.
help-ack-button = I have seen the alarm
# The page after confirming: $name.
help-ack-thanks = Thank you. { $name } now knows that you have seen the alarm.
# The page's advice: $name.
help-ack-hint = Please get in touch with { $name } or send help. If you cannot help, call the emergency number 112.
# On the help page while a channel's check fails: $channels (names as in `by_email`).
help-path-down = Alerts by { $channels } cannot be sent right now.
# After `path_down`, the channels that still work: $channels.
help-path-still = Alerts by { $channels } still work.
# On the help page while no channel of the person works.
help-path-none = No alert can be sent right now. In an emergency, please call the emergency number 112 yourself.
# Under the help button while the person's help reaches nobody: no contact is set up.
help-nobody-yet = Help reaches nobody yet – please add a contact. In an emergency, call the emergency number 112 yourself.
# Asked after a call for help by voice, before the alarm is raised.
help-question = Shall I alert your contacts? Please say yes or no.
# The answer to a no to that question.
help-declined = All right, I will not alert anyone.
# The question again, after an answer that is neither yes nor no.
help-again = I did not understand. Shall I alert your contacts? Please say yes or no.
# Why a press reached nobody, in its answer ($cause): no contact is entered.
help-cause-no-contact = No contact person is entered.
# ... contacts are entered, but no channel reaches them: $missing lists the help-missing-… names.
help-cause-no-channel = Your contacts are entered, but the assistant cannot reach them: { $missing } is not set up.
# What the gateway lacks to reach entered contacts, named for the person.
help-missing-mail = sending e-mail (mail server)
help-missing-sms = sending SMS
help-missing-calls = phone calls
# Under the help button while the person's help reaches nobody: contacts entered, no channel ($missing).
help-nobody-channel = Help reaches nobody yet: your contacts are entered, but { $missing } is not set up. Please tell whoever looks after the assistant. In an emergency, call the emergency number 112 yourself.
# Under the help button while the newest alarm was not delivered to some contacts: $who.
help-last-failed = The last alert could not be delivered to { $who }. Please tell whoever looks after the assistant.
# In the alarm's e-mail under the confirmation link, when it points at the gateway's loopback or a link-local address: $name.
help-confirm-unreachable = The link above opens only at home: this gateway cannot be reached from outside. If you are called, press 1 to confirm; otherwise please contact { $name } directly.
# How help was asked ($way: button, spoken, typed, key, checkin), in the alarm's subject, first line, call and page.
help-how = { $way ->
    [spoken] by voice
    [typed] in writing
    [key] with the help key on the telephone
    [checkin] at the daily check-in
   *[button] with the help button
}

# Under the help button and in the status: whom a call for help would reach now; $who: the parts, joined.
help-reaches = A call for help now reaches { $who }.
# One part of help-reaches: $who by $channels (joined channel names).
help-reaches-by = { $who } by { $channels }
# Whom: the person's own contacts.
help-reaches-contacts = the contacts
# Whom: the person's carers ($count of them).
help-reaches-carers = { $count ->
    [one] the carer
   *[other] the carers
}
# Whom: EMERGENCY_CONTACT_EMAIL.
help-reaches-default = the gateway's own contact
# In the alarm's e-mail under the confirmation link, when it points at the gateway's loopback and nobody is called: $name.
help-confirm-direct = The link above opens only at home: this gateway cannot be reached from outside. Please contact { $name } directly.
# In the alarm's e-mail and page: the person's own words ($words), typed or said ($way as in help-how), by $name.
help-said = { $way ->
    [spoken] { $name } said: “{ $words }”
   *[other] { $name } wrote: “{ $words }”
}

# Added to an answer inside the window after an alarm that reached somebody: $left minutes until a press sends again.
help-cooldown-again = A new alarm can be sent in { $left ->
        [one] a minute
       *[other] { $left } minutes
    }; whoever looks after the assistant can end this wait sooner.
