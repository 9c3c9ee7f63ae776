### What the telephone lines say by themselves.

phone-greeting-named = Bonjour { $name }. Comment puis-je vous aider ?
phone-greeting = Bonjour. Comment puis-je vous aider ?
phone-goodbye = Au revoir.
phone-silence = Je n'entends plus rien, je raccroche. Rappelez quand vous voulez. Au revoir.
phone-refusal = Ce numéro n'est pas autorisé pour cet assistant vocal. Au revoir.
phone-sorry = Désolé, cela n'a pas fonctionné. Réessayez dans un instant.
phone-too-long = C'était trop long pour moi d'un seul coup. Redemandez, s'il vous plaît, en phrases plus courtes.
phone-help-key = Pour obtenir de l'aide, appuyez à tout moment sur la touche { $key }.
phone-help-keys = Appuyez sur 1 pour oui ou sur 2 pour non.
phone-key-star = étoile
phone-key-hash = dièse
