### The page's labels and messages (the assistant's page in the browser).

page-settings = Réglages
page-device-speech-hint = Réponses avec la voix de cet appareil
page-large-text = Grand texte
page-pace = Quand je fais une pause
page-pace-auto = Apprendre mon rythme
page-pace-quick = Répondre vite
page-pace-normal = Attendre un peu
page-pace-patient = M'attendre
page-auto-voice = Automatique: { $voice }
page-auto-voice-plain = Automatique
page-needs-https = Le micro ne fonctionne qu'à l'adresse sécurisée.
page-open-secure = Ouvrir l'adresse sécurisée
page-trust-device = Configurer d'abord cet appareil
page-needs-tls = Le micro ne fonctionne qu'à une adresse sécurisée (https), que cet assistant ne propose pas encore. Demandez à la personne qui le gère d'activer HTTPS (le réglage TLS=auto).
page-mic-denied = Vous n'avez pas autorisé le micro. Autorisez-le dans les paramètres du site du navigateur (l'icône à côté de l'adresse), puis appuyez de nouveau sur Parler.
page-language = Langue
page-voice = Voix
page-device-speech = Parler sur cet appareil
page-logout = Se déconnecter
page-question = Votre question
page-type-here = Écrivez votre question
page-send = Envoyer
page-speak = Parler
page-stop = Arrêter
page-new-conversation = Nouvelle conversation
page-delete-conversation = Supprimer la conversation
page-memories = Ce que l'assistant retient
page-add-memory = Ajouter
page-new-memory = Une chose à retenir
page-help = Aide
page-help-confirm = Appeler à l'aide maintenant ? Vos contacts seront alertés.
page-help-confirm-unreachable = En cas d'urgence, appelez vous-même le 112 : votre appel à l'aide n'atteint personne en ce moment. Prévenir vos contacts quand même ?
page-help-yes = Oui, alerter
page-cancel = Annuler
page-sending = Envoi de l'alerte…
page-listening = Je vous écoute… parlez simplement.
page-thinking = Un instant…
page-heard = Vous avez dit
page-ready = Prêt.
page-quota = La limite du jour est atteinte. Elle repart à minuit.
page-provider-failed = L'assistant ne peut pas répondre pour le moment. Réessayez dans un instant.
page-busy = L'assistant est occupé. Réessayez dans un instant.
page-not-heard = Rien n'a été entendu. Répétez, s'il vous plaît.
page-too-long = C'était trop long d'un seul coup. Répétez, s'il vous plaît, en phrases plus courtes.
page-lost = La connexion est perdue. Nouvelle tentative…
page-offline-since = Pas de connexion depuis { $time } – les informations peuvent être périmées
page-reconnected = De nouveau connecté.
page-no-mic = Le micro ne peut pas être utilisé ici. Autorisez-le ou écrivez votre question.
page-sources = Sources
page-cooldown = L'alerte vient d'être déclenchée.
page-confirm-delete = Supprimer cette conversation ?
page-seen-by = Vu et confirmé par { $who }.
page-error = Une erreur est survenue
page-guest = Invité
page-admin = Administration
page-reminders = Rappels
page-reminder = Rappel
page-reminder-done = Fait
page-reminder-ok = OK
page-reminder-delete = Supprimer
page-timer-over = Le temps est écoulé.
page-no-reminders = Aucun rappel.
page-checkin-title = Nouvelles du jour
page-checkin-question = Tout va bien ?
page-checkin-fine = Je vais bien
page-checkin-help = J’ai besoin d’aide
page-reminder-missed = Manqué pendant que l’assistant était arrêté

page-signin-switch = Vous êtes connecté(e) dans ce navigateur en tant que { $current }. Continuer en tant que { $new } ?
page-signin-switch-yes = Continuer en tant que { $new }
page-signin-switch-no = Rester { $current }
page-signin-invalid-link = Ce lien personnel n'est pas (ou plus) valable. Demandez-en un nouveau.
page-signin-no-access = Vous n'avez pas encore d'accès personnel.
page-signin-button = Se connecter
page-signin-api = L'API est décrite à l'adresse <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = Le panneau d'administration est réservé aux personnes qui gèrent voice-gateway, et vous êtes connecté sous un autre nom. <a href="/">Retour à l'assistant</a>. Si c'est vous qui le gérez, ouvrez une fois dans ce navigateur votre propre lien d'administration (dans <code>admin-link.txt</code>, à côté de la base de données).
page-signin-insecure-link = Ce lien personnel ne peut pas vous connecter à cette adresse : les navigateurs ne gardent la connexion que sur une adresse sécurisée (https) ou sur la machine de la passerelle elle-même, et cette adresse est en http simple. Demandez à la personne qui gère voice-gateway d'activer HTTPS (le réglage <code>TLS=auto</code>, expliqué sous « Phones and tablets » dans son README), puis ouvrez votre lien à l'adresse https indiquée. Le microphone a aussi besoin de cette adresse.
page-signin-how = La connexion par nom nécessite un proxy d'authentification unique devant voice-gateway, et cette installation n'en a pas. À la place, chaque personne a un lien personnel (il se termine par <code>/?k=</code> et un long code) : demandez le vôtre à la personne qui gère voice-gateway et ouvrez-le une fois sur chacun de vos appareils ; ils restent connectés. La personne qui le gère trouve son propre lien dans <code>admin-link.txt</code>, à côté de la base de données, et crée les liens des autres dans le panneau d'administration.
page-cared-for-by = Pris en charge par { $names }
page-notify-carers = Les prévenir aussi quand j'appelle à l'aide ou ne confirme pas un rappel
page-share-with-carers = Ils peuvent voir la liste de mes conversations (jamais ce qui a été dit)
