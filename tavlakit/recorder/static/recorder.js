// tavlakit record: the page only shows what the server says. The rules are the server's (the engine's):
// which checkers may move, where they may go, why an attempt is refused.
(function () {
  "use strict";
  const token = document.body.dataset.token;
  const $ = (role) => document.querySelector(`[data-role="${role}"]`);
  let shown = null; // the last state
  let selected = null; // the point picked, and its targets
  let targets = [];
  let firstFace = null; // a die face tapped, waiting for the second
  let busy = Promise.resolve();

  let pending = 0; // requests not yet answered (body[data-pending]: for a test to wait on)

  function call(action, body) {
    // one request at a time, in the order made
    pending += 1;
    document.body.dataset.pending = String(pending);
    busy = busy.then(() =>
      fetch(`api/${action}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Token": token },
        body: JSON.stringify(body || {}),
      })
        .then((r) => r.json())
        .then(show)
        .catch((e) => refuse(String(e)))
        .finally(() => {
          pending -= 1;
          document.body.dataset.pending = String(pending);
        })
    );
    return busy;
  }

  function say(name) {
    // the roll's Tavla name aloud, when asked for and the browser can
    if (!$("speak").checked || !window.speechSynthesis) return;
    const words = new SpeechSynthesisUtterance(name);
    words.lang = "tr-TR";
    window.speechSynthesis.speak(words);
  }

  function refuse(text) {
    const box = $("refused");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function show(data) {
    if (data.error) {
      refuse(data.error);
      return;
    }
    if (data.dice && (!shown || shown.dice !== data.dice || shown.phase !== "move")) say(data.dice);
    shown = data;
    $("board").innerHTML = data.board;
    $("status").textContent = data.status;
    $("score").textContent = data.score;
    $("play").textContent = data.play;
    refuse(data.refused);
    const list = $("turns");
    list.innerHTML = "";
    for (const line of data.turns) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
    list.scrollTop = list.scrollHeight;
    for (const button of document.querySelectorAll("[data-can]")) {
      const can = data.can[button.dataset.can];
      button.disabled = !can;
      button.hidden = !can && button.dataset.can !== "undo" && button.dataset.can !== "done";
    }
    $("dicepad").classList.toggle("off", !data.can.dice);
    $("numbering").checked = data.numbering === "absolute";
    document.body.dataset.phase = data.phase;
    if (data.targets) {
      selected = data.selected;
      targets = data.targets;
    } else {
      selected = null;
      targets = [];
    }
    light();
    document.body.dataset.ready = "1";
    if (!document.body.dataset.pending) document.body.dataset.pending = "0";
  }

  function light() {
    for (const spot of document.querySelectorAll(".spot")) {
      const point = Number(spot.dataset.point);
      spot.classList.toggle("movable", selected === null && shown.movable.includes(point));
      spot.classList.toggle("selected", point === selected);
      spot.classList.toggle("lit", targets.includes(point));
    }
  }

  $("board").addEventListener("click", (event) => {
    const spot = event.target.closest(".spot");
    if (!spot || !shown || shown.phase !== "move") return;
    const point = Number(spot.dataset.point);
    if (selected === null) {
      call("select", { src: point });
    } else if (point === selected) {
      selected = null;
      targets = [];
      refuse("");
      light();
    } else if (!targets.includes(point) && shown.movable.includes(point)) {
      call("select", { src: point });
    } else {
      call("move", { src: selected, dst: point });
    }
  });

  for (const face of document.querySelectorAll(".face")) {
    face.addEventListener("click", () => {
      const value = Number(face.dataset.face);
      if (firstFace === null) {
        firstFace = value;
        face.classList.add("picked");
        return;
      }
      const dice = [firstFace, value];
      firstFace = null;
      for (const f of document.querySelectorAll(".face")) f.classList.remove("picked");
      call("dice", { dice });
    });
  }

  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("text");
    const text = input.value.trim();
    input.value = "";
    if (!text && shown && shown.can.done) call("done");
    else if (text) call("text", { text });
  });

  for (const button of document.querySelectorAll("[data-act]")) {
    button.addEventListener("click", () => {
      const action = button.dataset.act;
      if (action === "resign") {
        call("resign", { player: Number($("resigner").value), kind: $("resign-kind").value });
      } else {
        call(action);
      }
    });
  }

  $("numbering").addEventListener("change", () => call("numbering", { absolute: $("numbering").checked }));

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "u" && shown && shown.can.undo) call("undo");
    else if (key === "enter" && shown && shown.can.done) call("done");
    else if (key === "enter" && shown && shown.can.next) call("next");
    else if (key === "r" && shown && shown.can.dice) call("roll");
    else if (key === "escape") {
      selected = null;
      targets = [];
      light();
    } else return;
    event.preventDefault();
  });

  fetch("api/state", { headers: { "X-Token": token } })
    .then((r) => r.json())
    .then(show)
    .catch((e) => refuse(String(e)));
})();
