### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = De l'aide arrive : vos contacts ont été prévenus.
help-no-recipients = Votre appel à l'aide n'atteint encore personne : { $cause } Veuillez appeler vous-même le numéro d'urgence 112.
help-delivery-failed = L'envoi de l'alerte a échoué. Veuillez appeler vous-même le numéro d'urgence 112.
help-cooldown-reached = L'alerte a été déclenchée il y a { $minutes } minutes et a atteint { $who }. Si c'est urgent, appelez le numéro d'urgence 112.
help-cooldown-nobody = L'alerte d'il y a { $minutes } minutes n'a atteint personne. Une nouvelle alerte pourra être envoyée dans { $left ->
        [one] une minute
       *[other] { $left } minutes
    } ; la personne qui s'occupe de l'assistant peut mettre fin à cette attente plus tôt. Veuillez appeler vous-même le numéro d'urgence 112.
help-cooldown-sending = L'alerte est en cours d'envoi. Si c'est urgent, appelez le numéro d'urgence 112.
help-seen-by = Alerte vue et confirmée par { $who }.
help-by-email = e-mail
help-by-sms = SMS
help-by-call = appel
help-subject = URGENCE : { $name } a demandé de l'aide { help-how }
help-reminder-subject = RAPPEL – URGENCE : personne n'a encore confirmé l'alerte de { $name }
help-intro = { $name } a demandé de l'aide via l'assistant vocal, { help-how }. Veuillez prendre contact immédiatement ou envoyer de l'aide.
help-reminder-intro = Personne n'a encore confirmé cette alerte. { $name } a demandé de l'aide il y a { $minutes } minutes via l'assistant vocal. Veuillez prendre contact immédiatement ou envoyer de l'aide.
help-confirm-line = Veuillez confirmer que vous avez vu cette alerte : { $link }
help-name = Nom
help-address = Adresse
help-phone = Téléphone
help-birth-date = Date de naissance
help-medical-notes = Informations médicales
help-coordinates = Coordonnées géographiques
help-map = Carte
help-accuracy = Précision
help-fix-time = Heure de la localisation
help-position-unavailable = Position indisponible
help-position-not-shared = Position : non partagée (pas de consentement)
help-triggered-from = Déclenché depuis
help-unknown = inconnu
help-none = aucune
help-not-reported = non indiqué
help-mobile-device = appareil mobile
help-computer = ordinateur
help-unknown-device = appareil inconnu
help-call-112 = Si vous ne pouvez pas aider, appelez le numéro d'urgence 112.
help-sms = URGENCE : { $name } a besoin d'aide. Adresse : { $address }. Tél : { $phones }.
help-sms-reminder = RAPPEL, personne n'a encore confirmé. URGENCE : { $name } a besoin d'aide. Adresse : { $address }. Tél : { $phones }.
help-sms-location = Position : { $link }
help-sms-confirm = Vu ? Confirmez : { $link }
help-call = Attention, urgence. { $name } a demandé de l'aide { help-how }. Adresse : { $address }. Les détails se trouvent dans le SMS et dans l'e-mail.
help-call-reminder = Rappel : personne n'a encore confirmé cette urgence.
help-call-press-1 = Appuyez sur 1 pour confirmer que vous avez pris connaissance de cette alerte.
help-call-thanks = Merci. { $name } peut maintenant voir que vous avez pris connaissance de l'alerte.
help-ack-title = Alerte d'urgence
help-ack-question = { $name } a demandé de l'aide { help-how } à { $time }.
help-ack-button = J'ai vu l'alerte
help-ack-thanks = Merci. { $name } sait maintenant que vous avez vu l'alerte.
help-ack-hint = Veuillez prendre contact avec { $name } ou envoyer de l'aide. Si vous ne pouvez pas aider, appelez le numéro d'urgence 112.
help-path-down = Les alertes par { $channels } ne peuvent pas être envoyées pour le moment.
help-path-still = Les alertes par { $channels } fonctionnent toujours.
help-path-none = Aucune alerte ne peut être envoyée pour le moment. En cas d'urgence, veuillez appeler vous-même le numéro d'urgence 112.
help-nobody-yet = L'alerte n'atteint encore personne – veuillez ajouter un contact. En cas d'urgence, appelez vous-même le 112.
help-question = Dois-je prévenir vos contacts ? Dites oui ou non.
help-declined = D'accord, je ne préviens personne.
help-again = Je n'ai pas compris. Dois-je prévenir vos contacts ? Dites oui ou non.
help-cause-no-contact = Aucune personne à prévenir n'est enregistrée.
help-cause-no-channel = Vos contacts sont enregistrés, mais l'assistant ne peut pas les joindre : il manque { $missing }.
help-missing-mail = l'envoi d'e-mails (serveur de messagerie)
help-missing-sms = l'envoi de SMS
help-missing-calls = les appels téléphoniques
help-nobody-channel = L'aide n'atteint encore personne : vos contacts sont enregistrés, mais il manque { $missing }. Prévenez la personne qui s'occupe de l'assistant. En cas d'urgence, appelez vous-même le numéro d'urgence 112.
help-last-failed = La dernière alerte n'a pas pu être remise à { $who }. Prévenez la personne qui s'occupe de l'assistant.
help-confirm-unreachable = Le lien ci-dessus ne s'ouvre qu'à domicile : cette passerelle n'est pas joignable de l'extérieur. Si vous êtes appelé, appuyez sur 1 pour confirmer ; sinon, contactez directement { $name }.
help-how = { $way ->
    [spoken] de vive voix
    [typed] par écrit
    [key] avec la touche d'aide du téléphone
    [checkin] lors de la question quotidienne
   *[button] avec le bouton d'aide
}

help-reaches = Un appel à l'aide joint maintenant { $who }.
help-reaches-by = { $who } par { $channels }
help-reaches-contacts = les personnes à contacter
help-reaches-carers = { $count ->
    [one] le soignant
   *[other] les soignants
}
help-reaches-default = le contact de la maison
help-confirm-direct = Le lien ci-dessus ne s'ouvre qu'à domicile : cette passerelle n'est pas joignable de l'extérieur. Contactez directement { $name }.
help-said = { $way ->
    [spoken] { $name } a dit : « { $words } »
   *[other] { $name } a écrit : « { $words } »
}

help-cooldown-again = Une nouvelle alerte pourra être envoyée dans { $left ->
        [one] une minute
       *[other] { $left } minutes
    } ; la personne qui s’occupe de l’assistant peut mettre fin à cette attente plus tôt.
