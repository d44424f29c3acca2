// preuve web page: an answer to "what changed?" also shown as a diff, the two versions
// side by side (each change with its citation in both), under the answer. Kept apart
// from app.js, which only announces each finished answer ("preuve:answer" event).
(function () {
  "use strict";
  var T = window.PREUVE_TEXT || {};
  var $ = function (id) { return document.getElementById(id); };
  var VIEWER_LINK = /^\/(files|passages)\/[^\/\\\s][^\\\s]*$/;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  // each unit's link: the answer's citation of the same label (built by the server)
  // a unit's words, the runs the other version does not have struck out or inserted
  function marked(u, tag) {
    if (!u.marks) { return esc(u.text); }
    return u.marks.map(function (m) {
      return m[1] ? "<" + tag + ">" + esc(m[0]) + "</" + tag + ">" : esc(m[0]);
    }).join(" ");
  }
  function side(units, links, tag) {
    if (!units.length) { return '<td class="none">—</td>'; }
    return "<td>" + units.map(function (u) {
      var url = links[u.label] || "";
      var label = VIEWER_LINK.test(url)
        ? '<a class="citation" href="' + esc(url) + '" data-label="' + esc(u.label) + '">' +
          esc(u.label) + "</a>"
        : "<code>" + esc(u.label) + "</code>";
      return '<div class="unit">' + label + "<div>" + marked(u, tag) + "</div></div>";
    }).join("") + "</td>";
  }
  document.addEventListener("preuve:answer", function (ev) {
    var ans = ev.detail || {};
    var changes = (ans.explain || {}).changes;
    var box = $("changes-box");
    if (!changes || !changes.changes || !changes.changes.length) {
      box.hidden = true; $("changes").innerHTML = ""; return;
    }
    var links = {};
    (ans.citations || []).forEach(function (c) { links[c.label] = c.link; });
    var head = "<tr><th></th><th>" + esc(changes.old.path) + " · " + esc(T.version) + " " +
      esc(changes.old.version || "-") + "</th><th>" + esc(changes.new.path) + " · " +
      esc(T.version) + " " + esc(changes.new.version || "-") + "</th></tr>";
    $("changes").innerHTML = head + changes.changes.map(function (c) {
      return '<tr class="change ' + esc(c.kind) + '"><th>' + esc(T["change_" + c.kind] || c.kind) +
        (c.heading ? "<br><small>" + esc(c.heading.split(" > ").pop()) + "</small>" : "") +
        "</th>" + side(c.old, links, "del") + side(c.new, links, "ins") + "</tr>";
    }).join("");
    box.hidden = false;
  });
})();
