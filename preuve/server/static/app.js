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
    fetch("/me", {headers: headers()}).then(function (r) {
      return r.json().then(function (me) { return [r.status, me]; });
    }).then(function (got) {
      var me = got[1];
      $("key-status").textContent = me.error ? errorText(got[0], me.error)
                                             : T.key_saved + " · " + me.audience;
    });
  }

  // an error in the page's language by its HTTP status; the server's own words for the
  // statuses that name what was wrong with the request (400, 409, 422)
  function errorText(status, message) {
    var errors = T.errors || {};
    return errors[String(status)] || (status >= 500 ? errors["500"] : "") || message;
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
  var printedOf = {};  // a citation's link -> [page index, printed page label]
  var PRINTED_SUFFIX = / \(printed ([^()]*)\)$/;  // what the answer's own text adds
  // Markdown links [label](url) become citation links; everything else is text.
  function render(text) {
    var out = "", re = /\[([^\]]+)\]\(([^)\s]*)\)/g, last = 0, m;
    while ((m = re.exec(text)) !== null) {
      out += esc(text.slice(last, m.index));
      var url = m[2];
      if (isViewerLink(url)) {
        // the text says "(printed N)" in English: the page says it in its language
        var p = printedOf[url], printed = PRINTED_SUFFIX.exec(m[1]);
        var own = printed ? m[1].slice(0, printed.index) : m[1];
        var label = p ? withPrinted(own, p[0], p[1])
                      : printed ? own + " (" + T.printed + " " + printed[1] + ")" : m[1];
        out += '<a class="citation" href="' + esc(url) + '" data-label="' + esc(label) +
               '">' + esc(label) + "</a>";
      } else { out += esc(m[0]); }
      last = re.lastIndex;
    }
    return out + esc(text.slice(last));
  }

  // Passages open in a sandboxed frame that runs no script (no top navigation, forms;
  // popups only to open the file itself). allow-scripts is never given (with
  // allow-same-origin it would let the frame lift its own sandbox): this page scrolls the
  // frame to its highlight (#hl) once loaded, without moving itself as a #hl in the URL
  // would.
  var SANDBOX = "allow-same-origin allow-popups allow-popups-to-escape-sandbox";
  var views = {};  // an answer's citation link -> where the panel shows it (its `view`)
  var PDF_LINK = /^\/files\/([^\/#?]+)#page=(\d+)$/;
  function openPassage(url, label, view) {
    // a PDF link without its view (a turn stored earlier): its page, nothing marked
    var pdf = PDF_LINK.exec(url);
    url = view || (pdf ? "/passages/" + pdf[1] + "?page=" + pdf[2] : url);
    if (!isViewerLink(url)) { return; }
    var frame = $("passage-frame");
    frame.setAttribute("sandbox", SANDBOX);
    $("panel").hidden = false;
    $("panel-label").textContent = label || "";
    frame.onload = function () { scrollToHighlight(frame); };
    frame.src = url + (url.indexOf("?") < 0 ? "?" : "&") + "lang=" +
      encodeURIComponent(document.documentElement.lang);
  }
  function scrollToHighlight(frame) {
    var win = frame.contentWindow, doc = frame.contentDocument;
    var hl = doc && doc.getElementById("hl");
    if (!hl) { return; }
    var top = hl.getBoundingClientRect().top + win.scrollY;
    win.scrollTo(0, Math.max(0, top - win.innerHeight * 0.3));
  }
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.citation, a.source-link");
    if (!a) { return; }
    ev.preventDefault();
    openPassage(a.getAttribute("href"), a.getAttribute("data-label"),
                a.classList.contains("citation") ? views[a.getAttribute("href")]
                                                 : a.getAttribute("data-view"));
  });

  // "file.pdf p. 33 (printed 25)": the page index stays (links open it), the printed page
  // is added where it differs, in the page's language
  function withPrinted(label, page, printed) {
    printed = printed == null ? "" : String(printed).trim();
    if (page == null || !printed || printed === String(page)) { return label; }
    return label + " (" + T.printed + " " + printed + ")";
  }
  // a passage's text cut at a word boundary, with an ellipsis when cut
  function snippet(text, limit) {
    text = String(text).replace(/\s+/g, " ").trim();
    if (text.length <= limit) { return text; }
    var cut = text.slice(0, limit + 1), space = cut.lastIndexOf(" ");
    cut = space > limit / 2 ? cut.slice(0, space) : text.slice(0, limit);
    return cut.replace(/[\s,;:.\u2013\u2014-]+$/, "") + "\u2026";
  }
  // a refusal's reason (English, from the server) in the page's language
  function reasonText(reason) {
    var rules = T.reasons || [];
    for (var i = 0; i < rules.length; i++) {
      var m = new RegExp(rules[i][0]).exec(reason);
      if (m) {
        return rules[i][1].replace(/\$(\d)/g, function (_, n) { return m[n] || ""; });
      }
    }
    return T.reason_other || reason;
  }

  function sourceItem(h) {
    var label = withPrinted(h.label, h.page, h.page_label);
    return '<li><a class="source-link" href="' + esc(h.link) + '" data-view="' +
      esc(h.view || "") + '" data-label="' + esc(label) + '">' + esc(label) + '</a> <span class="score">' + esc(T.score) + " " +
      Number(h.score).toFixed(3) + '</span><div class="snippet">' + esc(snippet(h.text, 160)) +
      "</div></li>";
  }

  function showDone(ans) {
    var box = $("answer");
    (ans.citations || []).forEach(function (c) {
      if (c.view && c.link) { views[c.link] = c.view; }
      if (c.link && c.printed_page != null) { printedOf[c.link] = [c.page, c.printed_page]; }
    });
    box.classList.toggle("refused", !!ans.refused);
    box.innerHTML = ans.refused ? "<strong>" + esc(T.refused) + "</strong>\n" + render(ans.answer)
                                : render(ans.answer);
    box.setAttribute("data-state", ans.refused ? "refused" : "done");
    $("reason").hidden = !ans.refused || !ans.reason;
    $("reason").textContent = ans.reason ? T.reason + " : " + reasonText(ans.reason) : "";
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
      showError(errorText(resp.status, err.error)); return;
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
    if (!resp.ok) {
      $("compare-grid").textContent = T.error + " : " + errorText(resp.status, data.error);
      return;
    }
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
