/* tavlakit match viewer: steps through the frames embedded in the page.
   The boards are tavlakit.svg.board drawings stored as distinct lines; the
   data is JSON, gzip-compressed and base64-encoded (read with the
   browser's own DecompressionStream: no library, no network). */
(function () {
  "use strict";

  function bytes(text) {
    var raw = atob(text.trim()), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  function element(tag, cls, content) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (content) { el.textContent = content; }
    return el;
  }

  function start(data) {
    var lines = data.lines, games = data.games;
    if (!games.length) {  /* a record without games: only its problems are shown */
      document.body.dataset.ready = "1";
      return;
    }
    var $ = function (sel) { return document.querySelector(sel); };
    var board = $(".board"), pid = $('[data-role="position-id"]'), label = $(".turn-label");
    var counter = $(".counter"), problems = $(".problems"), analysis = $(".analysis"), comment = $(".comment");
    var select = $("select.game");
    var g = -1, f = 0;

    function show(gi, fi) {
      var game = games[gi], frame = game.frames[fi];
      if (gi !== g) {
        document.querySelectorAll(".game-pane").forEach(function (pane) {
          pane.hidden = Number(pane.dataset.game) !== gi;
        });
        select.value = String(gi);
      }
      g = gi; f = fi;
      board.innerHTML = frame.s.map(function (i) { return lines[i]; }).join("\n");
      pid.textContent = frame.id;
      label.textContent = frame.t;
      counter.textContent = data.text.of.replace("{n}", fi).replace("{total}", game.frames.length - 1);
      analysis.textContent = frame.a || "";
      comment.textContent = frame.c || "";
      problems.textContent = "";
      if (frame.r) { problems.appendChild(element("div", "result", frame.r)); }
      (frame.p || []).forEach(function (p) {
        var item = element("div", "problem " + p[0]);
        item.appendChild(element("b", "", p[1]));
        item.appendChild(document.createTextNode(" " + p[2]));
        item.appendChild(element("small", "", p[3]));
        problems.appendChild(item);
      });
      document.querySelectorAll(".turn.current").forEach(function (c) { c.classList.remove("current"); });
      var cell = document.querySelector('.turn[data-g="' + gi + '"][data-f="' + fi + '"]');
      if (cell) {
        cell.classList.add("current");
        if (cell.scrollIntoViewIfNeeded) { cell.scrollIntoViewIfNeeded(false); }
        else { cell.scrollIntoView({block: "nearest"}); }
      }
      var chart = document.querySelector('.chart[data-game="' + gi + '"]');
      if (chart) {
        var cursor = chart.querySelector(".cursor"), n = Number(chart.dataset.n);
        var x = Number(chart.dataset.x0) + (Number(chart.dataset.x1) - Number(chart.dataset.x0)) * fi / n;
        cursor.setAttribute("x1", x);
        cursor.setAttribute("x2", x);
      }
      try { history.replaceState(null, "", "#g" + (gi + 1) + "t" + fi); } catch (e) { /* srcdoc frames */ }
    }

    function step(delta) {
      var gi = g, fi = f + delta;
      if (fi < 0) {
        if (gi === 0) { return; }
        gi -= 1;
        fi = games[gi].frames.length - 1;
      } else if (fi >= games[gi].frames.length) {
        if (gi === games.length - 1) { return; }
        gi += 1;
        fi = 0;
      }
      show(gi, fi);
    }

    var actions = {
      next: function () { step(1); },
      prev: function () { step(-1); },
      first: function () { show(g, 0); },
      last: function () { show(g, games[g].frames.length - 1); },
      nextGame: function () { if (g < games.length - 1) { show(g + 1, 0); } },
      nextProblem: function () {  /* the first turn with a problem after this one, round to the start */
        var order = [];
        games.forEach(function (game, gi) {
          game.frames.forEach(function (frame, fi) { if (frame.p) { order.push([gi, fi]); } });
        });
        var after = order.filter(function (at) { return at[0] > g || (at[0] === g && at[1] > f); });
        var to = after.length ? after[0] : order[0];
        if (to) { show(to[0], to[1]); }
      },
      prevGame: function () { if (g > 0) { show(g - 1, 0); } }
    };
    var keys = {ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last",
                PageDown: "nextGame", PageUp: "prevGame", n: "nextProblem", N: "nextProblem"};

    document.addEventListener("keydown", function (event) {
      if (event.target === select || event.altKey || event.ctrlKey || event.metaKey) { return; }
      var action = keys[event.key];
      if (action) { event.preventDefault(); actions[action](); }
    });
    document.querySelectorAll("button[data-go]").forEach(function (button) {
      button.addEventListener("click", function () { actions[button.dataset.go](); });
    });
    select.addEventListener("change", function () { show(Number(select.value), 0); select.blur(); });
    document.querySelector("aside").addEventListener("click", function (event) {
      var cell = event.target.closest(".turn");
      if (cell) { show(Number(cell.dataset.g), Number(cell.dataset.f)); return; }
      var chart = event.target.closest(".chart");
      if (chart) {
        var box = chart.getBoundingClientRect(), width = chart.viewBox.baseVal.width;
        var x = (event.clientX - box.left) * width / box.width, n = Number(chart.dataset.n);
        var x0 = Number(chart.dataset.x0), x1 = Number(chart.dataset.x1);
        show(Number(chart.dataset.game), Math.max(0, Math.min(n, Math.round((x - x0) / (x1 - x0) * n))));
      }
    });

    var link = /^#g(\d+)t(\d+)$/.exec(location.hash);
    if (link && games[link[1] - 1] && games[link[1] - 1].frames[link[2]]) {
      show(Number(link[1]) - 1, Number(link[2]));
    } else {
      show(data.start, 0);
    }
    document.body.dataset.ready = "1";
  }

  if (!window.DecompressionStream) {
    document.querySelector(".board").textContent = document.body.dataset.tooOld;
    return;
  }
  var packed = new Blob([bytes(document.getElementById("tk-data").textContent)]);
  new Response(packed.stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function (text) {
    start(JSON.parse(text));
  });
})();
