/**
 * What the HTML pages say when the application's code does not arrive (a new release removed the old
 * files, the network, the server gone): the loader in client/boot-loader.html gives up with this
 * message and a reload button instead of spinning for ever. It runs before the texts are loaded, so it
 * carries its own, in the language of the address.
 */
export const BOOT_FAILURE_TEXTS = {
  en: {
    message: 'The portal could not be loaded: check the connection and reload the page.',
    reload: 'Reload the page',
  },
  fr: {
    message: 'Le portail n’a pas pu être chargé : vérifiez la connexion et rechargez la page.',
    reload: 'Recharger la page',
  },
} as const;

/** How long the loader waits for the application before it says so. */
const BOOT_GIVE_UP_MS = 8_000;

/**
 * The loader's script, inlined in the page by vite.config.ts (the page's own scripts are what may be
 * missing) and allowed by its hash in the Content-Security-Policy (server/plugins/security.ts). It
 * gives up at once when a script or style sheet of the page fails to load, else after BOOT_GIVE_UP_MS;
 * the application, arriving late, still replaces the message. Plain ES5: it runs before anything.
 */
export const BOOT_SCRIPT = `(function () {
  var texts = ${JSON.stringify(BOOT_FAILURE_TEXTS)};
  var text = /^\\/fr(\\/|$)/.test(location.pathname) ? texts.fr : texts.en;
  function giveUp() {
    var boot = document.querySelector('[data-testid="boot-loader"]');
    var body = boot && boot.querySelector('.boot-body');
    if (!body) return;
    var message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = text.message;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'boot-reload';
    button.textContent = text.reload;
    button.addEventListener('click', function () {
      location.reload();
    });
    var failed = document.createElement('div');
    failed.className = 'boot-failed';
    failed.setAttribute('data-testid', 'boot-failed');
    failed.appendChild(message);
    failed.appendChild(button);
    body.parentNode.replaceChild(failed, body);
  }
  setTimeout(giveUp, ${BOOT_GIVE_UP_MS});
  addEventListener(
    'error',
    function (event) {
      var element = event.target;
      if (element && (element.tagName === 'SCRIPT' || element.tagName === 'LINK')) giveUp();
    },
    true
  );
})();`;
