### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = La ayuda está en camino: se ha avisado a sus contactos.
help-no-recipients = Su aviso de ayuda aún no llega a nadie: { $cause } Por favor, llame usted al número de emergencias 112.
help-delivery-failed = No se ha podido enviar el aviso. Por favor, llame usted al número de emergencias 112.
help-cooldown-reached = La alarma se activó hace { $minutes } minutos y llegó a { $who }. Si es urgente, llame al número de emergencias 112.
help-cooldown-nobody = La alarma de hace { $minutes } minutos no llegó a nadie. Se podrá enviar una nueva alarma dentro de { $left ->
        [one] un minuto
       *[other] { $left } minutos
    }; quien se ocupa del asistente puede terminar antes esta espera. Por favor, llame usted al número de emergencias 112.
help-cooldown-sending = La alarma se está enviando ahora mismo. Si es urgente, llame al número de emergencias 112.
help-seen-by = Alarma vista y confirmada por { $who }.
help-by-email = correo electrónico
help-by-sms = SMS
help-by-call = llamada
help-subject = EMERGENCIA: { $name } ha pedido ayuda { help-how }
help-reminder-subject = RECORDATORIO – EMERGENCIA: nadie ha confirmado todavía la alarma de { $name }
help-intro = { $name } ha pedido ayuda a través del asistente de voz, { help-how }. Por favor, póngase en contacto de inmediato o envíe ayuda.
help-reminder-intro = Nadie ha confirmado todavía esta alarma. { $name } pidió ayuda hace { $minutes } minutos a través del asistente de voz. Por favor, póngase en contacto de inmediato o envíe ayuda.
help-confirm-line = Por favor, confirme que ha visto esta alarma: { $link }
help-name = Nombre
help-address = Dirección
help-phone = Teléfono
help-birth-date = Fecha de nacimiento
help-medical-notes = Notas médicas
help-coordinates = Coordenadas
help-map = Mapa
help-accuracy = Precisión
help-fix-time = Hora de la localización
help-position-unavailable = Ubicación no disponible
help-position-not-shared = Ubicación: no compartida (sin consentimiento)
help-triggered-from = Activado desde
help-unknown = desconocido
help-none = ninguna
help-not-reported = no indicado
help-mobile-device = dispositivo móvil
help-computer = ordenador
help-unknown-device = dispositivo desconocido
help-call-112 = Si no puede ayudar, llame al número de emergencias 112.
help-sms = EMERGENCIA: { $name } necesita ayuda. Dirección: { $address }. Tel: { $phones }.
help-sms-reminder = RECORDATORIO, nadie ha confirmado aún. EMERGENCIA: { $name } necesita ayuda. Dirección: { $address }. Tel: { $phones }.
help-sms-location = Ubicación: { $link }
help-sms-confirm = ¿Lo ha visto? Confirme: { $link }
help-call = Atención, emergencia. { $name } ha pedido ayuda { help-how }. Dirección: { $address }. Encontrará los detalles en el SMS y en el correo electrónico.
help-call-reminder = Recordatorio: nadie ha confirmado todavía esta emergencia.
help-call-press-1 = Pulse 1 para confirmar que ha recibido esta alarma.
help-call-thanks = Gracias. { $name } ya puede ver que usted ha recibido la alarma.
help-ack-title = Alarma de emergencia
help-ack-question = { $name } pidió ayuda { help-how } a las { $time }.
help-ack-button = He visto la alarma
help-ack-thanks = Gracias. { $name } ya sabe que usted ha visto la alarma.
help-ack-hint = Por favor, póngase en contacto con { $name } o envíe ayuda. Si no puede ayudar, llame al número de emergencias 112.
help-path-down = Los avisos por { $channels } no se pueden enviar en este momento.
help-path-still = Los avisos por { $channels } siguen funcionando.
help-path-none = Ahora mismo no se puede enviar ningún aviso. En caso de emergencia, por favor, llame usted al número de emergencias 112.
help-nobody-yet = La ayuda aún no llega a nadie: añada un contacto, por favor. En caso de emergencia, llame usted mismo al 112.
help-question = ¿Aviso a sus contactos? Diga sí o no.
help-declined = De acuerdo, no aviso a nadie.
help-again = No le he entendido. ¿Aviso a sus contactos? Diga sí o no.
help-cause-no-contact = No hay ninguna persona de contacto registrada.
help-cause-no-channel = Sus contactos están registrados, pero el asistente no puede avisarlos: falta { $missing }.
help-missing-mail = el envío de correos (servidor de correo)
help-missing-sms = el envío de SMS
help-missing-calls = las llamadas telefónicas
help-nobody-channel = La ayuda aún no llega a nadie: sus contactos están registrados, pero falta { $missing }. Dígaselo a quien se ocupa del asistente. En caso de emergencia, llame usted mismo al 112.
help-last-failed = La última alarma no se pudo entregar a { $who }. Dígaselo a quien se ocupa del asistente.
help-confirm-unreachable = El enlace de arriba solo se abre en casa: esta pasarela no es accesible desde fuera. Si le llaman, pulse 1 para confirmar; si no, póngase en contacto directamente con { $name }.
help-how = { $way ->
    [spoken] de viva voz
    [typed] por escrito
    [key] con la tecla de ayuda del teléfono
    [checkin] en la consulta diaria
   *[button] con el botón de ayuda
}

help-reaches = Una llamada de ayuda llega ahora a { $who }.
help-reaches-by = { $who } por { $channels }
help-reaches-contacts = los contactos
help-reaches-carers = { $count ->
    [one] el cuidador
   *[other] los cuidadores
}
help-reaches-default = el contacto de la casa
help-confirm-direct = El enlace de arriba solo se abre en casa: esta pasarela no es accesible desde fuera. Póngase en contacto directamente con { $name }.
help-said = { $way ->
    [spoken] { $name } dijo: «{ $words }»
   *[other] { $name } escribió: «{ $words }»
}

help-cooldown-again = Se podrá enviar una nueva alerta dentro de { $left ->
        [one] un minuto
       *[other] { $left } minutos
    }; quien se ocupa del asistente puede terminar esta espera antes.
