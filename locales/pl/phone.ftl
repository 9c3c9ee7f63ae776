### What the telephone lines say by themselves.

phone-greeting-named = Dzień dobry, { $name }. W czym mogę pomóc?
phone-greeting = Dzień dobry. W czym mogę pomóc?
phone-goodbye = Do widzenia.
phone-silence = Nic już nie słyszę, więc się rozłączam. Zadzwoń, kiedy chcesz. Do widzenia.
phone-refusal = Ten numer nie jest zarejestrowany w tym asystencie głosowym. Do widzenia.
phone-sorry = Niestety to się nie udało. Spróbuj ponownie za chwilę.
phone-too-long = To było dla mnie za długie naraz. Zapytaj proszę jeszcze raz, krótszymi zdaniami.
phone-help-key = Aby wezwać pomoc, proszę w każdej chwili nacisnąć { $key }.
phone-help-keys = Proszę nacisnąć 1, aby potwierdzić, lub 2, aby odmówić.
phone-key-star = gwiazdkę
phone-key-hash = krzyżyk
