// The bridge by hand, to show the protocol; npm users call createIframeBridge(iframe, { origin }).
var frame = document.getElementById("chat-frame");
var origin = location.origin; // where the worker serves /embed/... (here the same origin)
var ready = false,
  queue = [];
var log = function (line) {
  var el = document.getElementById("log");
  el.textContent += line + "\n";
  el.scrollTop = el.scrollHeight;
};
var post = function (cmd, value) {
  var msg = { parley: 1, cmd: cmd, value: value };
  if (ready || cmd === "hello") frame.contentWindow.postMessage(msg, origin);
  else queue.push(msg);
};
window.addEventListener("message", function (e) {
  if (e.source !== frame.contentWindow || e.origin !== origin || !e.data || e.data.parley !== 1) return;
  var ev = e.data.event,
    p = e.data.payload;
  if (ev === "ready" && !ready) {
    ready = true;
    queue.splice(0).forEach(function (m) {
      frame.contentWindow.postMessage(m, origin);
    });
  }
  if (ev === "close") frame.hidden = true;
  if (ev === "open") frame.hidden = false;
  log(ev + (p === undefined ? "" : " " + JSON.stringify(p).slice(0, 120)));
  (window.__events = window.__events || []).push(e.data);
});
frame.addEventListener("load", function () {
  post("hello");
});
document.getElementById("ask").onclick = function () {
  frame.hidden = false;
  post("open");
};
document.getElementById("send").onclick = function () {
  frame.hidden = false;
  post("send", "I have a red itchy rash on my arm");
};
document.getElementById("who").onchange = function (e) {
  post("identity", e.target.value);
};
document.getElementById("theme").onchange = function (e) {
  post("theme", e.target.value);
};
