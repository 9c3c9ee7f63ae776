# The care board (/carer): a carer's residents, what needs them first on top.
carer-title = Care board
carer-assistant = Assistant
carer-none = Nobody is in your care yet. An administrator names you a person's carer.
carer-alarm = Called for help at { $time }; nobody is looking after it yet
carer-looked = Called for help at { $time }; { $who } is looking after it
carer-checkin = Has not answered today's check-in (due { $time })
carer-checkin-missed = Did not answer the check-in due { $time }; nobody is looking after it yet
carer-checkin-looked = Did not answer the check-in due { $time }; { $who } is looking after it
carer-acknowledged-checkin = You are looking after { $name }'s unanswered check-in.
carer-missed = { $count ->
        [one] 1 reminder not confirmed
       *[other] { $count } reminders not confirmed
    }
carer-soon = Reminder at { $time }
carer-well = All well
carer-acknowledge = I am looking after it
carer-acknowledged-alarm = You are looking after { $name }'s call for help.
carer-acknowledged-notice = You are looking after what { $name }'s contacts were told.
carer-notice = Their contacts were told at { $time }: { $about }
carer-call = Call { $name }
# The carer's daily summary mail (carer_summary_at).
carer-summary-subject = Your residents today, { $date }
carer-summary-intro = How the day went for the people in your care: those who need you on top, then those somebody looked after:
carer-summary-alarm = called for help at { $time }
carer-summary-answered = answered the check-in
carer-summary-silent = did not answer the check-in
carer-summary-confirmed = { $count ->
        [one] confirmed 1 reminder
       *[other] confirmed { $count } reminders
    }
carer-summary-confirmed-by-carers = { $count ->
        [one] 1 reminder confirmed by a carer
       *[other] { $count } reminders confirmed by carers
    }
carer-summary-open = nobody has looked after it yet
carer-summary-looked-after = looked after by { $names }
carer-summary-quiet = nothing to tell
carer-day = The last day
carer-day-quiet = Nothing in the last day.
carer-day-alarm = Call for help: { $status ->
        [alerted] contacts told
        [no_recipients] nobody to tell
        [delivery_failed] telling failed
       *[other] being sent
    }
carer-day-alarm-open = nobody is looking after it yet
carer-day-alarm-looked = { $who } is looking after it
carer-mine = My e-mail and daily summary
carer-email = E-mail (care notices, calls for help, the summary)
carer-summary-time = Daily summary at (empty = none)
carer-save = Save
carer-mine-saved = Saved.
carer-window = Daily check-in window
carer-away-until = Away until
carer-time-zone = Time zone
carer-plan-saved = { $name }'s check-in is saved.
