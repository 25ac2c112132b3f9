// Demo pages only: say so when the worker answers with the scripted demo model, not a real LLM.
fetch("/v1/health")
  .then(function (r) {
    return r.json();
  })
  .then(function (h) {
    if (h && h.demo) document.getElementById("demo-banner").classList.add("on");
  })
  .catch(function () {});
