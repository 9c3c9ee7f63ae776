### The page's labels and messages (the assistant's page in the browser).

page-settings = Ajustes
page-device-speech-hint = Respuestas con la voz de este dispositivo
page-large-text = Letra grande
page-pace = Cuando hago una pausa
page-pace-auto = Aprender mi ritmo
page-pace-quick = Responder rápido
page-pace-normal = Esperar un momento
page-pace-patient = Esperarme
page-auto-voice = Automática: { $voice }
page-auto-voice-plain = Automática
page-needs-https = El micrófono solo funciona en la dirección segura.
page-open-secure = Abrir la dirección segura
page-trust-device = Configurar primero este dispositivo
page-needs-tls = El micrófono solo funciona en una dirección segura (https), que este asistente aún no ofrece. Pida a quien lo administra que active HTTPS (el ajuste TLS=auto).
page-mic-denied = No ha permitido el micrófono. Permítalo en los ajustes del sitio del navegador (el icono junto a la dirección) y pulse de nuevo Hablar.
page-language = Idioma
page-voice = Voz
page-device-speech = Hablar en este dispositivo
page-logout = Cerrar sesión
page-question = Su pregunta
page-type-here = Escriba su pregunta
page-send = Enviar
page-speak = Hablar
page-stop = Parar
page-new-conversation = Nueva conversación
page-delete-conversation = Borrar conversación
page-memories = Lo que recuerda el asistente
page-add-memory = Añadir
page-new-memory = Algo que recordar
page-help = Ayuda
page-help-confirm = ¿Pedir ayuda ahora? Se avisará a sus contactos.
page-help-confirm-unreachable = En caso de emergencia, llame usted mismo al 112: su aviso de ayuda no llega ahora a nadie. ¿Avisar a sus contactos de todos modos?
page-help-yes = Sí, avisar
page-cancel = Cancelar
page-sending = Enviando la alarma…
page-listening = Le escucho… hable sin más.
page-thinking = Un momento…
page-heard = Usted dijo
page-ready = Listo.
page-quota = Se alcanzó el límite diario. Vuelve a empezar a medianoche.
page-provider-failed = El asistente no puede responder ahora. Inténtelo de nuevo en un momento.
page-busy = El asistente está ocupado. Inténtelo de nuevo en un momento.
page-not-heard = No se ha oído nada. Por favor, dígalo otra vez.
page-too-long = Eso fue demasiado largo de una vez. Por favor, dígalo otra vez con frases más cortas.
page-lost = Se perdió la conexión. Reintentando…
page-offline-since = Sin conexión desde las { $time }: los datos pueden estar desactualizados
page-reconnected = Conectado de nuevo.
page-no-mic = No se puede usar el micrófono aquí. Permítalo o escriba su pregunta.
page-sources = Fuentes
page-cooldown = La alarma se acaba de enviar.
page-confirm-delete = ¿Borrar esta conversación?
page-seen-by = Visto y confirmado por { $who }.
page-error = Algo salió mal
page-guest = Invitado
page-admin = Administración
page-reminders = Recordatorios
page-reminder = Recordatorio
page-reminder-done = Hecho
page-reminder-ok = OK
page-reminder-delete = Borrar
page-timer-over = Se acabó el tiempo.
page-no-reminders = No hay recordatorios.
page-checkin-title = Consulta diaria
page-checkin-question = ¿Está todo bien?
page-checkin-fine = Estoy bien
page-checkin-help = Necesito ayuda
page-reminder-missed = Perdido mientras el asistente no funcionaba

page-signin-switch = Ha iniciado sesión en este navegador como { $current }. ¿Continuar como { $new }?
page-signin-switch-yes = Continuar como { $new }
page-signin-switch-no = Seguir como { $current }
page-signin-invalid-link = Este enlace personal no es válido (o ya no lo es). Pida uno nuevo.
page-signin-no-access = Todavía no tiene acceso personal.
page-signin-button = Iniciar sesión
page-signin-api = La API se describe en <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = El panel de administración es para quienes gestionan voice-gateway, y usted ha iniciado sesión como otra persona. <a href="/">Volver al asistente</a>. Si lo gestiona usted, abra una vez en este navegador su propio enlace de administración (en <code>admin-link.txt</code>, junto a la base de datos).
page-signin-insecure-link = Este enlace personal no puede iniciar su sesión en esta dirección: los navegadores solo conservan la sesión en una dirección segura (https) o en el propio equipo de la pasarela, y esta dirección es http simple. Pida a quien gestiona voice-gateway que active HTTPS (el ajuste <code>TLS=auto</code>, explicado en «Phones and tablets» de su README) y abra luego su enlace en la dirección https indicada. El micrófono también necesita esa dirección.
page-signin-how = Iniciar sesión con un nombre requiere un proxy de inicio de sesión único delante de voice-gateway, y esta instalación no tiene ninguno. En su lugar, cada persona tiene un enlace personal (termina en <code>/?k=</code> y un código largo): pida el suyo a quien gestiona voice-gateway y ábralo una vez en cada uno de sus dispositivos; la sesión se mantiene. Quien lo gestiona encuentra su propio enlace en <code>admin-link.txt</code>, junto a la base de datos, y crea los enlaces de los demás en el panel de administración.
page-cared-for-by = Me cuida { $names }
page-notify-carers = Avisarles también cuando pida ayuda o no confirme un recordatorio
page-share-with-carers = Pueden ver la lista de mis conversaciones (nunca lo que se dijo)
