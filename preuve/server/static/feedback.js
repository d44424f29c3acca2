// preuve web page: feedback under each answer (right / wrong / incomplete, optional
// comment), sent to POST /feedback with the answer and its citations. Kept apart from
// app.js, which only announces each finished answer ("preuve:answer" event).
(function () {
  "use strict";
  var T = window.PREUVE_TEXT || {};
  var $ = function (id) { return document.getElementById(id); };
  var current = null;  // the answer the buttons are about

  function citationsOf(ans) {
    return (ans.citations || []).filter(function (c) { return c.path; }).map(function (c) {
      var out = {label: c.label, path: c.path};
      ["page", "start_line", "end_line", "chunk_id"].forEach(function (k) {
        if (c[k] !== null && c[k] !== undefined) { out[k] = c[k]; }
      });
      return out;
    });
  }
  function reset() {
    $("feedback-box").hidden = current === null;
    $("feedback-comment").value = "";
    $("feedback-status").textContent = "";
    $("feedback-status").removeAttribute("data-state");
    Array.prototype.forEach.call(document.querySelectorAll("#feedback-box button"),
      function (b) { b.disabled = false; b.classList.remove("chosen"); });
  }
  document.addEventListener("preuve:answer", function (ev) {
    current = ev.detail || null;
    reset();
  });
  async function send(verdict, button) {
    if (!current) { return; }
    var key = localStorage.getItem("preuve_key") || "";
    var h = {"Content-Type": "application/json"};
    if (key) { h["X-API-Key"] = key; }
    var body = {question: current.question, answer: current.answer || "",
                refused: !!current.refused, citations: citationsOf(current),
                verdict: verdict, comment: $("feedback-comment").value.trim(),
                channel: "web"};
    var resp = await fetch("/feedback", {method: "POST", headers: h, body: JSON.stringify(body)});
    var data = await resp.json().catch(function () { return {}; });
    var status = $("feedback-status");
    if (resp.ok) {
      Array.prototype.forEach.call(document.querySelectorAll("#feedback-box button"),
        function (b) { b.disabled = true; });
      button.classList.add("chosen");
      status.textContent = T.feedback_thanks;
      status.setAttribute("data-state", "sent");
    } else {
      status.textContent = T.error + " : " + (data.error || resp.statusText);
      status.setAttribute("data-state", "error");
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll("#feedback-box button"),
    function (b) {
      b.addEventListener("click", function () {
        send(b.getAttribute("data-verdict"), b).catch(function (e) {
          $("feedback-status").textContent = T.error + " : " + String(e);
          $("feedback-status").setAttribute("data-state", "error");
        });
      });
    });
})();
