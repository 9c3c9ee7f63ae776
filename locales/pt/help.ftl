### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = A ajuda vem a caminho: os seus contactos foram avisados.
help-no-recipients = O seu pedido de ajuda ainda não chega a ninguém: { $cause } Por favor, ligue diretamente para o número de emergência 112.
help-delivery-failed = O envio do aviso falhou. Por favor, ligue diretamente para o número de emergência 112.
help-cooldown-reached = O alarme foi acionado há { $minutes } minutos e chegou a { $who }. Se for urgente, ligue para o número de emergência 112.
help-cooldown-nobody = O alarme de há { $minutes } minutos não chegou a ninguém. Um novo alarme poderá ser enviado dentro de { $left ->
        [one] um minuto
       *[other] { $left } minutos
    }; quem cuida do assistente pode terminar esta espera mais cedo. Por favor, ligue diretamente para o número de emergência 112.
help-cooldown-sending = O alarme está a ser enviado neste momento. Se for urgente, ligue para o número de emergência 112.
help-seen-by = Visto e confirmado por { $who }.
help-by-email = e-mail
help-by-sms = SMS
help-by-call = chamada
help-subject = EMERGÊNCIA: { $name } pediu ajuda { help-how }
help-reminder-subject = LEMBRETE – EMERGÊNCIA: ninguém confirmou ainda o alarme de { $name }
help-intro = { $name } pediu ajuda através do assistente de voz, { help-how }. Por favor, entre em contacto imediatamente ou envie ajuda.
help-reminder-intro = Ninguém confirmou ainda este alarme. { $name } pediu ajuda há { $minutes } minutos através do assistente de voz. Por favor, entre em contacto imediatamente ou envie ajuda.
help-confirm-line = Por favor, confirme que viu este alarme: { $link }
help-name = Nome
help-address = Morada
help-phone = Telefone
help-birth-date = Data de nascimento
help-medical-notes = Notas médicas
help-coordinates = Coordenadas
help-map = Mapa
help-accuracy = Precisão
help-fix-time = Hora da localização
help-position-unavailable = Localização indisponível
help-position-not-shared = Localização: não partilhada (sem consentimento)
help-triggered-from = Acionado a partir de
help-unknown = desconhecido
help-none = nenhuma
help-not-reported = não indicado
help-mobile-device = dispositivo móvel
help-computer = computador
help-unknown-device = dispositivo desconhecido
help-call-112 = Se não puder ajudar, ligue para o número de emergência 112.
help-sms = EMERGÊNCIA: { $name } precisa de ajuda. Morada: { $address }. Tel: { $phones }.
help-sms-reminder = LEMBRETE, ninguém confirmou ainda. EMERGÊNCIA: { $name } precisa de ajuda. Morada: { $address }. Tel: { $phones }.
help-sms-location = Localização: { $link }
help-sms-confirm = Viu? Confirme: { $link }
help-call = Atenção, emergência. { $name } pediu ajuda { help-how }. Morada: { $address }. Os detalhes estão na mensagem SMS e no e-mail.
help-call-reminder = Lembrete: ninguém confirmou ainda esta emergência.
help-call-press-1 = Prima 1 para confirmar que recebeu este alarme.
help-call-thanks = Obrigado. { $name } já pode ver que o alarme foi recebido.
help-ack-title = Alarme de emergência
help-ack-question = { $name } pediu ajuda { help-how } às { $time }.
help-ack-button = Vi o alarme
help-ack-thanks = Obrigado. { $name } já sabe que o alarme foi visto.
help-ack-hint = Por favor, entre em contacto com { $name } ou envie ajuda. Se não puder ajudar, ligue para o número de emergência 112.
help-path-down = Os avisos por { $channels } não podem ser enviados neste momento.
help-path-still = Os avisos por { $channels } continuam a funcionar.
help-path-none = Neste momento não é possível enviar nenhum aviso. Em caso de emergência, por favor, ligue diretamente para o número de emergência 112.
help-nobody-yet = A ajuda ainda não chega a ninguém – adicione um contacto. Numa emergência, ligue você mesmo para o 112.
help-question = Devo avisar os seus contactos? Diga sim ou não.
help-declined = Está bem, não aviso ninguém.
help-again = Não entendi. Devo avisar os seus contactos? Diga sim ou não.
help-cause-no-contact = Não está registada nenhuma pessoa de contacto.
help-cause-no-channel = Os seus contactos estão registados, mas o assistente não os consegue alcançar: falta { $missing }.
help-missing-mail = o envio de e-mails (servidor de correio)
help-missing-sms = o envio de SMS
help-missing-calls = as chamadas telefónicas
help-nobody-channel = A ajuda ainda não chega a ninguém: os seus contactos estão registados, mas falta { $missing }. Diga-o a quem cuida do assistente. Numa emergência, ligue você mesmo para o 112.
help-last-failed = O último alarme não pôde ser entregue a { $who }. Diga-o a quem cuida do assistente.
help-confirm-unreachable = A ligação acima só abre em casa: este gateway não está acessível de fora. Se lhe ligarem, prima 1 para confirmar; caso contrário, contacte diretamente { $name }.
help-how = { $way ->
    [spoken] por voz
    [typed] por escrito
    [key] com a tecla de ajuda do telefone
    [checkin] na verificação diária
   *[button] com o botão de ajuda
}

help-reaches = Um pedido de ajuda chega agora a { $who }.
help-reaches-by = { $who } por { $channels }
help-reaches-contacts = os contactos
help-reaches-carers = { $count ->
    [one] o cuidador
   *[other] os cuidadores
}
help-reaches-default = o contacto da casa
help-confirm-direct = A ligação acima só abre em casa: este gateway não está acessível de fora. Contacte diretamente { $name }.
help-said = { $way ->
    [spoken] { $name } disse: «{ $words }»
   *[other] { $name } escreveu: «{ $words }»
}

help-cooldown-again = Um novo alarme poderá ser enviado daqui a { $left ->
        [one] um minuto
       *[other] { $left } minutos
    }; quem cuida do assistente pode terminar esta espera mais cedo.
