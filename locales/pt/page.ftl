### The page's labels and messages (the assistant's page in the browser).

page-settings = Definições
page-device-speech-hint = Respostas com a voz deste dispositivo
page-large-text = Letra grande
page-pace = Quando faço uma pausa
page-pace-auto = Aprender o meu ritmo
page-pace-quick = Responder depressa
page-pace-normal = Esperar um pouco
page-pace-patient = Esperar por mim
page-auto-voice = Automática: { $voice }
page-auto-voice-plain = Automática
page-needs-https = O microfone só funciona no endereço seguro.
page-open-secure = Abrir o endereço seguro
page-trust-device = Configurar primeiro este dispositivo
page-needs-tls = O microfone só funciona num endereço seguro (https), que este assistente ainda não oferece. Peça a quem o gere para ativar o HTTPS (a definição TLS=auto).
page-mic-denied = Não permitiu o microfone. Permita-o nas definições do site do navegador (o ícone junto ao endereço) e prima de novo Falar.
page-language = Idioma
page-voice = Voz
page-device-speech = Falar neste dispositivo
page-logout = Terminar sessão
page-question = A sua pergunta
page-type-here = Escreva a sua pergunta
page-send = Enviar
page-speak = Falar
page-stop = Parar
page-new-conversation = Nova conversa
page-delete-conversation = Apagar conversa
page-memories = O que o assistente lembra
page-add-memory = Adicionar
page-new-memory = Algo para lembrar
page-help = Ajuda
page-help-confirm = Pedir ajuda agora? Os seus contactos serão alertados.
page-help-confirm-unreachable = Numa emergência, ligue você mesmo para o 112: o seu pedido de ajuda não chega agora a ninguém. Avisar os seus contactos mesmo assim?
page-help-yes = Sim, alertar
page-cancel = Cancelar
page-sending = A enviar o alarme…
page-listening = Estou a ouvir… fale à vontade.
page-thinking = Um momento…
page-heard = Disse
page-ready = Pronto.
page-quota = O limite diário foi atingido. Recomeça à meia-noite.
page-provider-failed = O assistente não consegue responder agora. Tente de novo daqui a pouco.
page-busy = O assistente está ocupado. Tente outra vez daqui a pouco.
page-not-heard = Não se ouviu nada. Por favor, diga outra vez.
page-too-long = Foi demasiado longo de uma vez. Por favor, diga outra vez em frases mais curtas.
page-lost = A ligação perdeu-se. A tentar de novo…
page-offline-since = Sem ligação desde as { $time } – os dados podem estar desatualizados
page-reconnected = Ligado de novo.
page-no-mic = Não é possível usar o microfone aqui. Permita-o ou escreva a pergunta.
page-sources = Fontes
page-cooldown = O alarme acabou de ser enviado.
page-confirm-delete = Apagar esta conversa?
page-seen-by = Visto e confirmado por { $who }.
page-error = Algo correu mal
page-guest = Convidado
page-admin = Administração
page-reminders = Lembretes
page-reminder = Lembrete
page-reminder-done = Feito
page-reminder-ok = OK
page-reminder-delete = Apagar
page-timer-over = O tempo acabou.
page-no-reminders = Sem lembretes.
page-checkin-title = Contacto diário
page-checkin-question = Está tudo bem?
page-checkin-fine = Estou bem
page-checkin-help = Preciso de ajuda
page-reminder-missed = Perdido enquanto o assistente não funcionava

page-signin-switch = Tem sessão iniciada neste navegador como { $current }. Continuar como { $new }?
page-signin-switch-yes = Continuar como { $new }
page-signin-switch-no = Continuar como { $current }
page-signin-invalid-link = Este link pessoal não é (ou já não é) válido. Peça um novo.
page-signin-no-access = Ainda não tem acesso pessoal.
page-signin-button = Iniciar sessão
page-signin-api = A API está descrita em <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = O painel de administração é para quem gere o voice-gateway, e tem sessão iniciada como outra pessoa. <a href="/">Voltar ao assistente</a>. Se é quem o gere, abra uma vez neste navegador o seu próprio link de administração (em <code>admin-link.txt</code>, junto à base de dados).
page-signin-insecure-link = Este link pessoal não consegue iniciar a sua sessão neste endereço: os navegadores só guardam a sessão num endereço seguro (https) ou na própria máquina do gateway, e este endereço é http simples. Peça a quem gere o voice-gateway que ative o HTTPS (a definição <code>TLS=auto</code>, explicada em «Phones and tablets» no README) e abra depois o seu link no endereço https indicado. O microfone também precisa desse endereço.
page-signin-how = Iniciar sessão com um nome exige um proxy de início de sessão único à frente do voice-gateway, e esta instalação não tem nenhum. Em vez disso, cada pessoa tem um link pessoal (termina em <code>/?k=</code> e num código longo): peça o seu a quem gere o voice-gateway e abra-o uma vez em cada um dos seus dispositivos; a sessão mantém-se. Quem o gere encontra o seu próprio link em <code>admin-link.txt</code>, junto à base de dados, e cria os links dos outros no painel de administração.
page-cared-for-by = Cuidado por { $names }
page-notify-carers = Avisá-los também quando peço ajuda ou não confirmo um lembrete
page-share-with-carers = Podem ver a lista das minhas conversas (nunca o que foi dito)
