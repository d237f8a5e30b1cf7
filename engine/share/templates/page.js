// genplan's exported run page: fills in what a reader opens, compares versions, steps through plans.
// Everything it needs is in the JSON block #run-data; it loads nothing.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("run-data").textContent);
  var texts = data.texts;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ---- the timeline: a model call's messages and answer, filled in when it is opened
  function fillCall(details) {
    var body = details.querySelector(".call-body");
    if (body.dataset.filled) return;
    body.dataset.filled = "1";
    var parts = details.dataset.messages ? details.dataset.messages.split(",") : [];
    parts.forEach(function (part) {
      var cut = part.lastIndexOf(":");
      body.appendChild(el("div", "role", part.slice(0, cut)));
      body.appendChild(el("pre", "text message", texts[Number(part.slice(cut + 1))]));
    });
    if (!parts.length) body.appendChild(el("p", "note", "The request's messages were not recorded in this run."));
    body.appendChild(el("div", "role", "answer"));
    var answer = details.dataset.answer;
    body.appendChild(answer === "" ? el("p", "note", "No answer was recorded.") : el("pre", "text answer", texts[Number(answer)]));
  }
  document.querySelectorAll("details.call").forEach(function (details) {
    details.addEventListener("toggle", function () { if (details.open) fillCall(details); });
  });
  var only = document.getElementById("only-requests");
  if (only) only.addEventListener("change", function () {
    document.querySelector("div.timeline").classList.toggle("only-requests", only.checked);
  });

  // ---- compare: a line diff (longest common subsequence) of two versions of the same kind, side by side
  function diffLines(a, b) {
    var n = a.length, m = b.length, ops = [];
    if (n * m > 4e6) {  // too large to align: show both whole
      a.forEach(function (line) { ops.push(["del", line, null]); });
      b.forEach(function (line) { ops.push(["add", null, line]); });
      return ops;
    }
    var lcs = [];
    for (var i = 0; i <= n; i++) lcs.push(new Uint32Array(m + 1));
    for (i = n - 1; i >= 0; i--) for (var j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    i = 0; j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) { ops.push(["same", a[i++], b[j++]]); }
      else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) { ops.push(["del", a[i++], null]); }
      else { ops.push(["add", null, b[j++]]); }
    }
    return ops;
  }
  function showDiff() {
    var leftValue = document.getElementById("diff-left").value, rightValue = document.getElementById("diff-right").value;
    var left = leftValue === "" ? null : data.versions[Number(leftValue)];
    var right = rightValue === "" ? null : data.versions[Number(rightValue)];
    var out = document.getElementById("diff");
    out.textContent = "";
    if (!left || !right) { out.appendChild(el("p", "note", "This run has fewer than two versions of one artefact.")); return; }
    var ops = diffLines(texts[left.text].split("\n"), texts[right.text].split("\n"));
    var table = el("table", "diff");
    var head = el("tr");
    head.appendChild(el("th", "", left.file)); head.appendChild(el("th", "", right.file));
    table.appendChild(head);
    var changed = 0;
    function addRow(leftClass, leftText, rightClass, rightText) {
      var row = el("tr");
      row.appendChild(el("td", leftClass, leftText));
      row.appendChild(el("td", rightClass, rightText));
      table.appendChild(row);
    }
    // a block of deleted lines and the block of added lines after it share rows, as changed lines
    for (var k = 0; k < ops.length;) {
      if (ops[k][0] === "same") { addRow("", ops[k][1], "", ops[k][2]); k++; continue; }
      var gone = [], come = [];
      while (k < ops.length && ops[k][0] === "del") gone.push(ops[k++][1]);
      while (k < ops.length && ops[k][0] === "add") come.push(ops[k++][2]);
      for (var r = 0; r < Math.max(gone.length, come.length); r++) {
        addRow(r < gone.length ? "del" : "gap", r < gone.length ? gone[r] : "",
               r < come.length ? "add" : "gap", r < come.length ? come[r] : "");
        changed++;
      }
    }
    out.appendChild(el("p", "detail", changed ? changed + " lines differ" :
      "the two versions are the same: " + left.file + " and " + right.file + " hold identical texts"));
    out.appendChild(table);
  }
  function fillPickers() {
    var left = document.getElementById("diff-left"), right = document.getElementById("diff-right");
    if (!left) return;
    data.versions.forEach(function (version, index) {
      var option = el("option", "", version.kind + ": " + version.file);
      option.value = index;
      left.appendChild(option);
    });
    function rightChoices() {  // versions of the same artefact as the left one: never two different things
      var artefact = data.versions[Number(left.value)] ? data.versions[Number(left.value)].artefact : null;
      var keep = right.value;
      right.textContent = "";
      data.versions.forEach(function (version, index) {
        if (version.artefact !== artefact || String(index) === left.value) return;  // another version of it
        var option = el("option", "", version.kind + ": " + version.file);
        option.value = index;
        right.appendChild(option);
      });
      if (keep && right.querySelector('option[value="' + keep + '"]')) right.value = keep;
    }
    // start with the latest version of an artefact and the one before it: of the kind a reader most likely
    // changed (programs first), the artefact whose latest version is the run's latest
    var byArtefact = {}, order = ["program", "function", "strategy", "pddl_problem", "pddl_domain", "problem"];
    data.versions.forEach(function (version, index) {
      (byArtefact[version.artefact] = byArtefact[version.artefact] || []).push(index);
    });
    var best = null;
    Object.keys(byArtefact).forEach(function (artefact) {
      var indexes = byArtefact[artefact];
      if (indexes.length < 2) return;
      var rank = order.indexOf(data.versions[indexes[0]].kind);
      rank = rank < 0 ? order.length : rank;
      var last = indexes[indexes.length - 1];
      if (best === null || rank < best.rank || (rank === best.rank && last > best.last)) best = {rank: rank, last: last, artefact: artefact};
    });
    var ofKind = best === null ? [] : byArtefact[best.artefact];
    if (ofKind.length >= 2) left.value = ofKind[ofKind.length - 2];
    rightChoices();
    if (ofKind.length >= 2) right.value = ofKind[ofKind.length - 1];
    left.addEventListener("change", function () { rightChoices(); showDiff(); });
    right.addEventListener("change", showDiff);
    showDiff();
  }
  fillPickers();

  // ---- the results matrix: a cell's feedback and its plan in the stepper. The plan is the engine's trace
  // (engine/plan_trace.py, the app's stepper shows the same): states[p] is the state before step p, the last one
  // the state after the last step that ran; goal_holds[p] says which goal facts hold there. Nothing is computed
  // here: past a failing step nothing ran, and the stepper does not walk on.
  var plan = null, at = 0;
  function ran() { return plan.states.length - 1; }
  function notRun() { return plan.steps.filter(function (step) { return step.status === "not run"; }); }
  function endNote() {
    if (plan.failing !== null) {
      var failed = plan.steps[plan.failing], rest = notRun(), note = " · the next step, " + failed.number + ", fails: " +
        (failed.unsatisfied.join(", ") || "see the feedback");
      if (rest.length === 1) note += "; step " + rest[0].number + " was not run";
      else if (rest.length > 1) note += "; steps " + rest[0].number + "–" + rest[rest.length - 1].number + " were not run";
      return note;
    }
    return plan.valid ? " · the goal holds" : " · every step ran; the goal does not hold";
  }
  function showStep() {
    var steps = plan.steps, step = at > 0 ? steps[at - 1] : null;
    var label = at === 0 ? "initial state" : "after step " + step.number + " of " + steps.length + ": " + step.action;
    if (at === ran()) label += endNote();
    document.getElementById("step-label").textContent = label;
    var list = document.getElementById("step-actions");
    list.textContent = "";
    steps.forEach(function (item, k) {
      var current = k === at - 1 || (at === ran() && k === plan.failing);
      var node = el("li", "st-" + item.status.replace(" ", "-") + (current ? " current" : ""), item.action);
      node.value = item.number;
      if (item.status === "failed") {
        node.appendChild(el("span", "why", " ✗ fails: " + (item.unsatisfied.join(", ") || "see the feedback")));
      } else if (item.status === "not run") {
        node.appendChild(el("span", "why", " not run"));
      }
      // a step that ran shows the state after it; the failing step and those after it, the state it failed in
      node.addEventListener("click", function () { at = Math.min(k + 1, ran()); showStep(); });
      list.appendChild(node);
    });
    var state = new Set(plan.states[at]), statics = new Set(plan.static);
    var shown = document.getElementById("step-state"), withStatic = document.getElementById("step-static").checked;
    shown.textContent = "";
    plan.states[at].forEach(function (fact) {
      if (!withStatic && statics.has(fact)) return;
      shown.appendChild(el("li", step && step.added.indexOf(fact) >= 0 ? "added" : "", fact));
    });
    if (step) step.deleted.forEach(function (fact) {
      if (!state.has(fact)) shown.appendChild(el("li", "deleted", fact));
    });
    var goal = document.getElementById("step-goal");
    goal.textContent = "";
    plan.goal.forEach(function (fact, k) {
      var holds = plan.goal_holds[at][k];
      goal.appendChild(el("li", holds ? "pass" : "fail", (holds ? "✓ " : "✗ ") + fact));
    });
  }
  function openCell(button) {
    var panel = document.getElementById("cell");
    panel.hidden = false;
    document.getElementById("cell-title").textContent = button.dataset.title;
    var message = texts[Number(button.dataset.message)];
    document.getElementById("cell-message").textContent = message || "solved: no feedback";
    var stepper = document.getElementById("stepper");
    plan = button.dataset.plan === "" ? null : data.plans[Number(button.dataset.plan)];
    stepper.hidden = !plan;
    if (plan) {
      at = ran();  // where the plan ended: before its failing step, or after its last
      showStep();
    }
    // the page gets room below its end for the panel, and the chosen cell stays in sight above it
    document.body.classList.add("panel-open");
    var above = panel.getBoundingClientRect().top, cell = button.getBoundingClientRect();
    if (cell.bottom > above) window.scrollBy(0, cell.bottom - above + 16);
  }
  function closePanel() {
    document.getElementById("cell").hidden = true;
    document.body.classList.remove("panel-open");
  }
  var close = document.getElementById("cell-close");
  if (close) close.addEventListener("click", closePanel);
  document.addEventListener("keydown", function (event) { if (event.key === "Escape" && close) closePanel(); });
  document.querySelectorAll("button.cell").forEach(function (button) {
    button.addEventListener("click", function () { openCell(button); });
  });
  function move(to) { if (plan) { at = Math.max(0, Math.min(ran(), to)); showStep(); } }
  var controls = {
    "step-first": function () { move(0); }, "step-prev": function () { move(at - 1); },
    "step-next": function () { move(at + 1); },
    "step-fail": function () { if (plan && plan.failing !== null) move(plan.failing); }
  };
  Object.keys(controls).forEach(function (id) {
    var button = document.getElementById(id);
    if (button) button.addEventListener("click", controls[id]);
  });
  var statics = document.getElementById("step-static");
  if (statics) statics.addEventListener("change", function () { if (plan) showStep(); });
})();
