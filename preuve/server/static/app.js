// preuve web page: ask (answer streamed over SSE), open cited passages, compare methods.
(function () {
  "use strict";
  var T = window.PREUVE_TEXT || {};
  var KEY = "preuve_key";
  var $ = function (id) { return document.getElementById(id); };

  function getKey() { return localStorage.getItem(KEY) || ""; }
  function setKey(key) {
    if (key) {
      localStorage.setItem(KEY, key);
      // the passage viewer (an iframe) cannot send headers: same-site cookie for GETs
      document.cookie = KEY + "=" + encodeURIComponent(key) + "; path=/; SameSite=Strict";
    } else {
      localStorage.removeItem(KEY);
      document.cookie = KEY + "=; path=/; max-age=0; SameSite=Strict";
    }
    showKeyStatus();
  }
  function headers(extra) {
    var h = Object.assign({"Content-Type": "application/json"}, extra || {});
    var key = getKey();
    if (key) { h["X-API-Key"] = key; }
    return h;
  }
  function showKeyStatus() {
    var key = getKey();
    if (!key) { if (!$("key-status").textContent) { $("key-status").textContent = T.no_key; } return; }
    fetch("/me", {headers: headers()}).then(function (r) { return r.json(); }).then(function (me) {
      $("key-status").textContent = me.error ? me.error : T.key_saved + " · " + me.audience;
    });
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  // Only links into this server's viewer (/files/…, /passages/…) are followed: never
  // another host (//host, /\host), never a scheme (javascript:, https:, file:).
  var VIEWER_LINK = /^\/(files|passages)\/[^\/\\\s][^\\\s]*$/;
  function isViewerLink(url) { return VIEWER_LINK.test(url); }
  // Markdown links [label](url) become citation links; everything else is text.
  function render(text) {
    var out = "", re = /\[([^\]]+)\]\(([^)\s]*)\)/g, last = 0, m;
    while ((m = re.exec(text)) !== null) {
      out += esc(text.slice(last, m.index));
      var url = m[2];
      if (isViewerLink(url)) {
        out += '<a class="citation" href="' + esc(url) + '" data-label="' + esc(m[1]) +
               '">' + esc(m[1]) + "</a>";
      } else { out += esc(m[0]); }
      last = re.lastIndex;
    }
    return out + esc(text.slice(last));
  }

  // Passages open in a sandboxed frame (no top navigation, forms or popups). A file of
  // /files/ (a PDF at its page) needs the browser's PDF viewer, which refuses to run in a
  // sandbox: the frame drops it for those (they are served with their own CSP sandbox
  // unless they are PDFs, and only ever from this origin, as indexed).
  var SANDBOX = "allow-same-origin allow-scripts";
  function openPassage(url, label) {
    if (!isViewerLink(url)) { return; }
    var frame = $("passage-frame");
    if (url.indexOf("/files/") === 0) { frame.removeAttribute("sandbox"); }
    else { frame.setAttribute("sandbox", SANDBOX); }
    $("panel").hidden = false;
    $("panel-label").textContent = label || "";
    frame.src = url;
  }
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.citation, a.source-link");
    if (!a) { return; }
    ev.preventDefault();
    openPassage(a.getAttribute("href"), a.getAttribute("data-label"));
  });

  function sourceItem(h) {
    var snippet = h.text.replace(/\s+/g, " ").slice(0, 140);
    return '<li><a class="source-link" href="' + esc(h.link) + '" data-label="' +
      esc(h.label) + '">' + esc(h.label) + '</a> <span class="score">' + esc(T.score) + " " +
      Number(h.score).toFixed(3) + '</span><div class="snippet">' + esc(snippet) + "</div></li>";
  }

  function showDone(ans) {
    var box = $("answer");
    box.classList.toggle("refused", !!ans.refused);
    box.innerHTML = ans.refused ? "<strong>" + esc(T.refused) + "</strong>\n" + render(ans.answer)
                                : render(ans.answer);
    box.setAttribute("data-state", ans.refused ? "refused" : "done");
    $("reason").hidden = !ans.refused || !ans.reason;
    $("reason").textContent = ans.reason ? T.reason + " : " + ans.reason : "";
    $("sources").innerHTML = (ans.hits || []).map(sourceItem).join("");
    document.dispatchEvent(new CustomEvent("preuve:answer", {detail: ans}));  // feedback.js
  }
  function showError(message) {
    var box = $("answer");
    box.classList.add("error");
    box.setAttribute("data-state", "error");
    box.textContent = T.error + " : " + message;
  }

  // fetch + a small SSE reader (EventSource cannot POST nor send headers)
  async function ask(question, method) {
    $("answer-box").hidden = false;
    $("compare-box").hidden = true;
    var box = $("answer");
    box.className = ""; box.textContent = ""; box.setAttribute("data-state", "streaming");
    $("sources").innerHTML = ""; $("reason").hidden = true;
    var body = {question: question, stream: true};
    if (method) { body.method = method; }
    var resp = await fetch("/ask", {method: "POST", body: JSON.stringify(body),
      headers: headers({"Accept": "text/event-stream"})});
    if (!resp.ok) {
      var err = await resp.json().catch(function () { return {error: resp.statusText}; });
      showError(err.error); return;
    }
    var reader = resp.body.getReader(), decoder = new TextDecoder(), buf = "", text = "";
    for (;;) {
      var r = await reader.read();
      if (r.done) { break; }
      buf += decoder.decode(r.value, {stream: true});
      var parts = buf.split("\n\n");
      buf = parts.pop();
      parts.forEach(function (block) {
        var ev = "message", data = "";
        block.split("\n").forEach(function (line) {
          if (line.indexOf("event:") === 0) { ev = line.slice(6).trim(); }
          else if (line.indexOf("data:") === 0) { data += line.slice(5).trim(); }
        });
        if (!data) { return; }
        var payload = JSON.parse(data);
        if (ev === "token") { text += payload.text; box.textContent = text; }
        else if (ev === "done") { showDone(payload); }
        else if (ev === "error") { showError(payload.error); }
      });
    }
  }

  async function compare(question) {
    $("compare-box").hidden = false;
    var resp = await fetch("/compare", {method: "POST", headers: headers(),
      body: JSON.stringify({question: question, k: 5})});
    var data = await resp.json();
    if (!resp.ok) { $("compare-grid").textContent = T.error + " : " + data.error; return; }
    $("compare-note").hidden = data.vectors;
    $("compare-note").textContent = data.vectors ? "" : T.no_vectors;
    $("compare-grid").innerHTML = Object.keys(data.methods).map(function (m) {
      var hits = data.methods[m];
      var inner = hits === null ? "<p>" + esc(T.no_vectors) + "</p>" :
        hits.length ? "<ol>" + hits.map(sourceItem).join("") + "</ol>" :
        "<p>" + esc(T.no_results) + "</p>";
      return '<div class="cmp" data-method="' + m + '"><h3>' + m + "</h3>" + inner + "</div>";
    }).join("");
  }

  $("ask-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var q = $("question").value.trim();
    if (q) { ask(q, $("method").value).catch(function (e) { showError(String(e)); }); }
  });
  $("compare").addEventListener("click", function () {
    var q = $("question").value.trim();
    if (q) { compare(q).catch(function (e) { showError(String(e)); }); }
  });
  $("save-key").addEventListener("click", function () { setKey($("api-key").value.trim()); });
  $("forget-key").addEventListener("click", function () { $("api-key").value = ""; setKey(""); });
  $("panel-close").addEventListener("click", function () {
    $("panel").hidden = true; $("passage-frame").src = "about:blank";
  });
  $("lang-toggle").addEventListener("click", function () {
    document.cookie = "preuve_lang=" + T.other_lang + "; path=/; SameSite=Strict";
  });
  if (getKey()) { $("api-key").value = getKey(); setKey(getKey()); } else { showKeyStatus(); }
})();
