// @ts-check
// The service worker of Web Push (docs/server.md, "Notifications"): served at
// /push-sw.js so that its scope is the whole site. The server pushes
// {title, body, url} (accounts/push.py); this shows it, and a click opens the
// table (a tab already on it is brought forward instead). A classic script,
// not a module: every browser with Web Push runs those as service workers.

/**
 * The parts of the service worker's global scope used here (tsc checks this
 * file against the DOM's types, which have no worker scope).
 * @typedef {{data: {json(): unknown} | null, waitUntil(work: Promise<unknown>): void}} PushMessage
 * @typedef {{notification: Notification, waitUntil(work: Promise<unknown>): void}} NotificationClick
 * @typedef {{url: string, focus(): Promise<unknown>}} WindowTab
 * @typedef {{
 *   registration: ServiceWorkerRegistration,
 *   location: Location,
 *   clients: {matchAll(options: object): Promise<WindowTab[]>, openWindow(url: string): Promise<unknown>},
 *   addEventListener(type: string, listener: (event: any) => void): void,
 * }} PushWorker
 */
const pushWorker = /** @type {PushWorker} */ (/** @type {unknown} */ (self));

/**
 * The pushed notice, or null when it is not one of ours.
 * @param {PushMessage} event
 * @returns {{title: string, body: string, url: string} | null}
 */
function noticeOf(event) {
  try {
    const data = /** @type {Record<string, unknown>} */ (event.data?.json());
    const { title, body, url } = data;
    if (typeof title !== "string" || typeof body !== "string" || typeof url !== "string") return null;
    return { title, body, url };
  } catch {
    return null;
  }
}

pushWorker.addEventListener("push", (/** @type {PushMessage} */ event) => {
  const notice = noticeOf(event);
  if (notice === null) return;
  event.waitUntil(pushWorker.registration.showNotification(notice.title, {
    body: notice.body,
    data: { url: notice.url },
    // One notice per table on screen: a newer one about it replaces the last.
    tag: notice.url,
  }));
});

pushWorker.addEventListener("notificationclick", (/** @type {NotificationClick} */ event) => {
  event.notification.close();
  const wanted = new URL(String(event.notification.data?.url ?? "/"), pushWorker.location.origin);
  // Only this site's pages: a notice never sends anyone elsewhere.
  const url = wanted.origin === pushWorker.location.origin ? wanted.href : pushWorker.location.origin;
  event.waitUntil(pushWorker.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    const open = tabs.find((tab) => tab.url === url);
    return open ? open.focus() : pushWorker.clients.openWindow(url);
  }));
});
