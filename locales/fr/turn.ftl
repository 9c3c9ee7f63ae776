### What a turn says besides the answer.

turn-voice-fallback = La voix choisie ne parle pas cette langue ; la voix locale parle à sa place.
turn-filler = Un instant, s'il vous plaît.
turn-speak-again = Je n'ai rien compris. Pouvez-vous répéter, s'il vous plaît ?
