// Demo pages only: say so when the worker answers with the scripted demo model, not a real LLM.
fetch("/v1/health")
  .then(function (r) {
    return r.json();
  })
  .then(function (h) {
    if (h && h.demo) document.getElementById("demo-banner").classList.add("on");
  })
  .catch(function () {});

// Demo mode: the demo site's webhook deliveries (worker/routes/demo-webhooks.ts), refreshed every 3 s.
function showHooks() {
  fetch("/v1/demo/webhooks")
    .then(function (r) {
      return r.ok ? r.json() : null;
    })
    .then(function (h) {
      if (!h) return;
      document.getElementById("demo-hooks").hidden = false;
      document.getElementById("demo-hooks-url").textContent = h.endpoint.url;
      var list = document.getElementById("demo-hooks-list");
      var items = h.deliveries.map(function (d) {
        var li = document.createElement("li");
        li.textContent =
          d.type +
          " · " +
          d.status +
          " · " +
          d.attempts +
          " attempt(s)" +
          (d.lastResponse ? " · " + d.lastResponse : "");
        return li;
      });
      list.replaceChildren.apply(list, items);
    })
    .catch(function () {});
}
fetch("/v1/health")
  .then(function (r) {
    return r.json();
  })
  .then(function (h) {
    if (!h || !h.demo) return;
    showHooks();
    setInterval(showHooks, 3000);
  })
  .catch(function () {});
