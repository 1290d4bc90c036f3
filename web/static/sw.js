// The service worker, served at /sw.js so that its scope is the whole site ("/"). It only
// shows the "your move" notices the server pushes (docs/push.md) and, on a click, brings the
// table's page forward: a tab already showing it, else a new one. It caches nothing and
// sees no request: the pages work exactly as they do without it.
"use strict";

const ICON = "/static/img/crest-192.png";

self.addEventListener("install", () => {
  self.skipWaiting();
});
self.addEventListener("activate", (ev) => {
  ev.waitUntil(self.clients.claim());
});

// Only a path of this site is ever opened: a notice names its table's page, nothing else.
function pagePath(url) {
  try {
    const u = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return u.origin === self.location.origin ? u.pathname : "/";
  } catch (err) {
    return "/";
  }
}

function text(value, fallback) {
  return typeof value === "string" && value ? value : fallback;
}

self.addEventListener("push", (ev) => {
  let data = {};
  try {
    data = ev.data ? ev.data.json() : {};
  } catch (err) {
    data = {};
  }
  const options = {
    body: text(data.body, ""),
    icon: ICON,
    // One notice per table on the device too: a reminder replaces the first notice, and
    // still sounds (renotify).
    tag: text(data.tag, "guildhall"),
    renotify: true,
    data: { url: pagePath(data.url) },
  };
  ev.waitUntil(self.registration.showNotification(text(data.title, "Guildhall"), options));
});

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const path = pagePath(ev.notification.data && ev.notification.data.url);
  ev.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      for (let i = 0; i < tabs.length; i++) {
        if (new URL(tabs[i].url).pathname === path && "focus" in tabs[i]) return tabs[i].focus();
      }
      return self.clients.openWindow(path);
    }),
  );
});
