### What a turn says besides the answer.

turn-voice-fallback = La voix choisie, { $voice }, ne parle pas français : { $speaker } parle à sa place.
turn-voice-missing = { $engine } n'a pas de voix française ici : { $speaker } parle à sa place. La personne qui gère l'assistant peut en installer une.
turn-filler = Un instant, s'il vous plaît.
turn-speak-again = Je n'ai rien compris. Pouvez-vous répéter, s'il vous plaît ?
turn-cannot-answer = Le modèle de langue { $model } ne parle pas français : la réponse sera sans doute en anglais ou sans queue ni tête. La personne qui gère l'assistant peut installer un modèle qui parle français.
turn-closing = Je m'arrête ici. Demandez-moi si vous voulez en savoir plus.
turn-search-used-up = La recherche web est épuisée pour aujourd'hui : ma réponse peut être dépassée.
turn-search-off = La recherche web est désactivée : ma réponse peut être dépassée.
turn-kept-at-home = Vos paroles restent sur la machine de cette passerelle, et aucun modèle ici ne peut encore y répondre. Demandez à la personne qui gère voice-gateway d’installer un modèle local, ou désactivez « Mes paroles restent à la maison ».
