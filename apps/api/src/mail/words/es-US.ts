import type { MailWords } from './mail-words.js';

// The same messages in US Spanish, as a bank writes to business owners: "usted", the glossary of
// docs/copy-style.md (contraseña, enlace, correo electrónico, iniciar sesión, llave de acceso…).

export const esUS = {
  lang: 'es-US',
  greeting: (name) => `Hola, ${name}:`,
  hello: 'Hola:',
  units: {
    minute: { one: 'minuto', other: 'minutos' },
    hour: { one: 'hora', other: 'horas' },
    day: { one: 'día', other: 'días' },
  },
  layout: {
    buttonFallback: 'Si el botón no funciona, copie este enlace en su navegador:',
    sentBy: { before: 'Enviado por ', between: ' desde ', after: '.' },
    questions: (phone) => `¿Tiene preguntas? Llámenos al ${phone}.`,
    neverAsk: 'Nunca le pediremos su contraseña por correo electrónico ni por teléfono.',
  },

  passwordReset: ({ lender, phone, expiry }) => ({
    subject: `Restablezca su contraseña de ${lender}`,
    preheader: `Use este enlace para elegir una nueva contraseña. Caduca en ${expiry}.`,
    heading: 'Restablezca su contraseña',
    paragraphs: [
      `Recibimos una petición para restablecer la contraseña de su cuenta de ${lender}. Para elegir una nueva contraseña, use el enlace a continuación.`,
      `El enlace funciona una sola vez y caduca en ${expiry}.`,
    ],
    action: 'Elegir una nueva contraseña',
    footnote: `¿No lo pidió? Puede ignorar este correo sin problema; su contraseña no cambiará. Si cree que alguien intenta entrar en su cuenta, llámenos al ${phone}.`,
  }),

  magicLink: ({ lender, phone, expiry }) => ({
    subject: `Su enlace para iniciar sesión en ${lender}`,
    preheader: `Inicie sesión con un clic. El enlace caduca en ${expiry}.`,
    heading: 'Inicie sesión en su cuenta',
    paragraphs: [
      `Alguien pidió iniciar sesión en su cuenta de ${lender} con esta dirección de correo electrónico. Si fue usted, use el enlace a continuación para iniciar sesión. No necesita contraseña.`,
      `El enlace funciona una sola vez y caduca en ${expiry}. No reenvíe este correo: cualquier persona que tenga el enlace puede iniciar sesión como usted.`,
    ],
    action: 'Iniciar sesión',
    footnote: `¿No lo pidió? Puede ignorar este correo sin problema; no pasará nada si no se usa el enlace. Si sigue recibiendo estos mensajes, llámenos al ${phone}.`,
  }),

  invitation: ({ lender, phone, expiry }) => ({
    subject: `Le damos la bienvenida a ${lender}: configure su cuenta en línea`,
    preheader: `Elija una contraseña para ver sus préstamos en línea. El enlace caduca en ${expiry}.`,
    heading: `Le damos la bienvenida a ${lender}`,
    paragraphs: [
      `Creamos una cuenta en línea para usted en ${lender}. Allí puede ver sus préstamos, sus saldos y sus próximos pagos, y revisar y firmar los documentos de sus préstamos cuando le resulte conveniente.`,
      'Para comenzar, use el enlace a continuación y elija una contraseña. Iniciará sesión en su cuenta con esta dirección de correo electrónico.',
      `El enlace funciona una sola vez y caduca en ${expiry}. Si ya caducó, llámenos y le enviaremos uno nuevo.`,
    ],
    action: 'Configurar mi cuenta',
    footnote: `¿No esperaba este mensaje? Puede ignorar este correo sin problema: no se creará ninguna cuenta si no se usa el enlace. Si cree que le llegó por error, llámenos al ${phone}.`,
  }),

  emailVerification: ({ lender, expiry }) => ({
    subject: `Confirme su correo electrónico para su solicitud de préstamo con ${lender}`,
    preheader: `Un clic para continuar con su solicitud de préstamo. El enlace caduca en ${expiry}.`,
    heading: 'Confirme su correo electrónico',
    paragraphs: [
      `Gracias por comenzar una solicitud de préstamo con ${lender}. Para continuar, confirme que esta dirección de correo electrónico es suya con el enlace a continuación.`,
      `El enlace caduca en ${expiry}. Una vez confirmada su dirección, nos comunicaremos con usted sobre los próximos pasos.`,
    ],
    action: 'Confirmar mi correo electrónico',
    footnote: `¿No comenzó una solicitud? Puede que alguien haya escrito su dirección por error. Puede ignorar este correo sin problema: la dirección no se confirmará si no se usa el enlace.`,
  }),

  passwordChanged: ({ lender, phone, otherSessionsEnded }) => ({
    subject: `Se cambió su contraseña de ${lender}`,
    preheader: 'Su contraseña se cambió desde la página de su cuenta.',
    heading: 'Se cambió su contraseña',
    paragraphs: [
      `La contraseña de su cuenta de ${lender} se acaba de cambiar desde la página de su cuenta. De ahora en adelante, use la nueva contraseña para iniciar sesión.`,
      otherSessionsEnded
        ? 'Se cerró la sesión en sus otros dispositivos. Tendrá que volver a iniciar sesión en ellos.'
        : 'Sus otros dispositivos siguen con la sesión iniciada.',
    ],
    footnote: `¿No cambió su contraseña? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
  }),

  factorsReset: ({ lender, phone }) => ({
    subject: `Se quitaron los pasos adicionales de inicio de sesión de su cuenta de ${lender}`,
    preheader: 'Nuestro equipo de soporte los quitó a petición suya.',
    heading: 'Se quitaron sus pasos adicionales de inicio de sesión',
    paragraphs: [
      `A petición suya, nuestro equipo de soporte quitó los pasos adicionales de su inicio de sesión en ${lender}: aplicaciones de autenticación, códigos por correo electrónico, llaves de acceso y códigos de recuperación. Se cerró la sesión en todos sus dispositivos.`,
      'Inicie sesión con su contraseña y luego vuelva a configurar un paso adicional desde la página de su cuenta.',
    ],
    footnote: `¿No nos pidió esto? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
  }),

  authenticatorAppChanged: ({ lender, phone, change }) => {
    const added = change === 'added';
    return {
      subject: added
        ? `Se agregó una aplicación de autenticación a su cuenta de ${lender}`
        : `Se quitó una aplicación de autenticación de su cuenta de ${lender}`,
      preheader: added
        ? 'Se agregó una aplicación de autenticación desde la página de su cuenta.'
        : 'Se quitó una aplicación de autenticación desde la página de su cuenta.',
      heading: added
        ? 'Se agregó una aplicación de autenticación'
        : 'Se quitó una aplicación de autenticación',
      paragraphs: [
        added
          ? `Se acaba de agregar una aplicación de autenticación a su cuenta de ${lender} desde la página de su cuenta. De ahora en adelante, ingresará un código de esa aplicación cada vez que inicie sesión.`
          : `Se acaba de quitar una aplicación de autenticación de su cuenta de ${lender} desde la página de su cuenta. Ya no se le pedirá un código de esa aplicación al iniciar sesión.`,
      ],
      footnote: `¿No hizo este cambio? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
    };
  },

  passkeyChanged: ({ lender, phone, change }) => {
    const added = change === 'added';
    return {
      subject: added
        ? `Se agregó una llave de acceso a su cuenta de ${lender}`
        : `Se quitó una llave de acceso de su cuenta de ${lender}`,
      preheader: added
        ? 'Se agregó una llave de acceso desde la página de su cuenta.'
        : 'Se quitó una llave de acceso desde la página de su cuenta.',
      heading: added ? 'Se agregó una llave de acceso' : 'Se quitó una llave de acceso',
      paragraphs: [
        added
          ? `Se acaba de agregar una llave de acceso a su cuenta de ${lender} desde la página de su cuenta. Ahora puede usarla para iniciar sesión, con o sin su contraseña.`
          : `Se acaba de quitar una llave de acceso de su cuenta de ${lender} desde la página de su cuenta. Ya no se puede usar para iniciar sesión.`,
      ],
      footnote: `¿No hizo este cambio? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
    };
  },

  emailChangeLink: ({ lender, phone, expiry }) => ({
    subject: `Confirme su nuevo correo electrónico para iniciar sesión en ${lender}`,
    preheader: `Use este enlace para iniciar sesión con esta dirección de ahora en adelante. Caduca en ${expiry}.`,
    heading: 'Confirme su nuevo correo electrónico',
    paragraphs: [
      `Usted pidió iniciar sesión en su cuenta de ${lender} con esta dirección de correo electrónico. Para hacer el cambio, use el enlace a continuación mientras tenga la sesión iniciada.`,
      `El enlace funciona una sola vez y caduca en ${expiry}. Mientras no se use, no cambia nada.`,
    ],
    action: 'Confirmar mi nuevo correo electrónico',
    footnote: `¿No lo pidió? Puede ignorar este correo sin problema: no cambiará nada si no se usa el enlace. Si sigue recibiendo estos mensajes, llámenos al ${phone}.`,
  }),

  emailChanged: ({ lender, phone }) => ({
    subject: `Se cambió su correo electrónico para iniciar sesión en ${lender}`,
    preheader: 'Ahora inicia sesión en su cuenta con otra dirección de correo electrónico.',
    heading: 'Se cambió su correo electrónico para iniciar sesión',
    paragraphs: [
      `La dirección de correo electrónico con la que inicia sesión en su cuenta de ${lender} se acaba de cambiar desde la página de su cuenta. De ahora en adelante, enviaremos los mensajes sobre su cuenta a la nueva dirección.`,
    ],
    footnote: `¿No la cambió? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
  }),

  newSignIn: ({ lender, phone, expiry, device, when, network }) => ({
    subject: `Nuevo inicio de sesión en su cuenta de ${lender}`,
    preheader: 'Se inició sesión en su cuenta desde un dispositivo que no se había usado antes.',
    heading: 'Nuevo inicio de sesión en su cuenta',
    paragraphs: [
      `Se acaba de iniciar sesión en su cuenta de ${lender} desde un dispositivo que no se había usado antes con ella.`,
      `Dispositivo: ${device ?? 'Dispositivo desconocido'}`,
      `Cuándo: ${when}`,
      `Red aproximada: ${network ?? 'Desconocida'}`,
      'Si fue usted, no necesita hacer nada.',
      `Si no fue usted, use el enlace a continuación. Cierra la sesión de su cuenta en todos los dispositivos y le permite elegir una nueva contraseña. Funciona una sola vez, durante ${expiry}.`,
    ],
    action: 'No fui yo',
    footnote: `¿Tiene preguntas sobre su cuenta? Llámenos al ${phone}.`,
  }),
  deviceOn: (browser, system) => `${browser} en ${system}`,

  emailInUse: ({ lender, phone }) => ({
    subject: `Alguien intentó usar su correo electrónico en ${lender}`,
    preheader: 'Otra cuenta pidió iniciar sesión con esta dirección. No se cambió nada.',
    heading: 'Su correo electrónico ya está en uso',
    paragraphs: [
      `Alguien con la sesión iniciada en otra cuenta de ${lender} pidió iniciar sesión con esta dirección de correo electrónico de ahora en adelante. La dirección ya pertenece a su cuenta, así que no se cambió nada.`,
    ],
    footnote: `No necesita hacer nada. Si cree que alguien intenta entrar en su cuenta, llámenos al ${phone}.`,
  }),

  factorCode: ({ lender, phone, code, expiry, purpose }) => {
    const signIn = purpose === 'sign-in';
    return {
      subject: signIn
        ? `${code} es su código de verificación para iniciar sesión en ${lender}`
        : `${code} es su código de verificación de ${lender}`,
      preheader: `Ingrese este código. Caduca en ${expiry}.`,
      heading: signIn ? 'Su código para iniciar sesión' : 'Confirme su correo electrónico',
      paragraphs: [
        signIn
          ? `Para terminar de iniciar sesión en su cuenta de ${lender}, ingrese este código: ${code}`
          : `Para recibir códigos de inicio de sesión por correo electrónico, ingrese este código donde lo pidió: ${code}`,
        `El código funciona una sola vez y caduca en ${expiry}.`,
      ],
      footnote: signIn
        ? `¿No intentó iniciar sesión? Puede que alguien sepa su contraseña. Cámbiela desde la página de su cuenta o llámenos al ${phone}.`
        : `¿No lo pidió? Puede ignorar este correo sin problema. Si sigue recibiendo estos mensajes, llámenos al ${phone}.`,
    };
  },

  stepUpCode: ({ lender, phone, code, expiry }) => ({
    subject: `${code} es su código de verificación de ${lender}`,
    preheader: `Ingrese este código. Caduca en ${expiry}.`,
    heading: 'Confirme que es usted',
    paragraphs: [
      `Para confirmar que es usted antes de firmar un documento o hacer un cambio en su cuenta, ingrese este código: ${code}`,
      `El código funciona una sola vez, en la página donde lo pidió, y caduca en ${expiry}.`,
    ],
    footnote: `¿No lo pidió? Puede que alguien tenga la sesión iniciada en su cuenta. Cierre sesión en todos los dispositivos desde la página de su cuenta o llámenos al ${phone}.`,
  }),

  factorNotice: ({ lender, phone, change }) => {
    const notice = {
      'email-codes-added': {
        subject: `Se activaron los códigos por correo electrónico en su cuenta de ${lender}`,
        heading: 'Se activaron los códigos por correo electrónico',
        text: `Se acaban de activar los códigos de inicio de sesión por correo electrónico en su cuenta de ${lender} desde la página de su cuenta. Ahora puede iniciar sesión con un código que le enviaremos a esta dirección.`,
      },
      'email-codes-removed': {
        subject: `Se desactivaron los códigos por correo electrónico en su cuenta de ${lender}`,
        heading: 'Se desactivaron los códigos por correo electrónico',
        text: `Se acaban de desactivar los códigos de inicio de sesión por correo electrónico en su cuenta de ${lender} desde la página de su cuenta. Ya no le enviaremos códigos para iniciar sesión.`,
      },
      'recovery-codes-generated': {
        subject: `Se crearon nuevos códigos de recuperación para su cuenta de ${lender}`,
        heading: 'Se crearon nuevos códigos de recuperación',
        text: `Se acaba de crear un nuevo conjunto de códigos de recuperación para su cuenta de ${lender} desde la página de su cuenta. Los códigos que tenía antes ya no funcionan.`,
      },
    }[change];
    return {
      subject: notice.subject,
      preheader: `${notice.heading} desde la página de su cuenta.`,
      heading: notice.heading,
      paragraphs: [notice.text],
      footnote: `¿No hizo este cambio? Llámenos de inmediato al ${phone} y protegeremos su cuenta.`,
    };
  },
} satisfies MailWords;
