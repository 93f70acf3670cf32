// engram serve's live reload, loaded by every page of the preview and
// never by the published site. The server names the build it serves in
// a "reload" event, when the page connects and after every rebuild; a
// page of another build reloads. The page's own build is in
// <meta name="engram-serve">; while the stream is open, <html> has
// data-engram-serve="live".
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="engram-serve"]');
  if (!meta || !window.EventSource) {
    return;
  }
  var root = document.documentElement;
  var events = new EventSource("/_engram/events");
  events.addEventListener("open", function () {
    root.setAttribute("data-engram-serve", "live");
  });
  events.addEventListener("error", function () {
    root.removeAttribute("data-engram-serve");
  });
  events.addEventListener("reload", function (e) {
    if (e.data !== meta.content) {
      events.close();
      window.location.reload();
    }
  });
})();
