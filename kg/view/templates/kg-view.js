/* kg views: draws the page's graph with vis-network and wires search, type filter and details.
 *
 * All text from the corpus (titles, abstracts, names) reaches the page as JSON
 * and is put into the DOM with textContent only, never as HTML, so a hostile
 * abstract cannot run script. Links are limited to the kg pages and http(s). */
(function () {
  "use strict";
  var KG = JSON.parse(document.getElementById("kg-data").textContent);
  var byId = {};
  KG.nodes.forEach(function (n) { byId[n.id] = n; });

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "href") { if (safeHref(attrs[k])) e.setAttribute("href", attrs[k]); }
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function safeHref(h) { return typeof h === "string" && (/^https?:\/\//i.test(h) || /^[\w.\-\/]+\.html(#[\w.:=%\-]*)?$/.test(h)); }
  function clip(s, n) { s = s || ""; return s.length > n ? s.slice(0, n - 1) + "…" : s; }
  function badge(type) {
    var st = KG.styles[type] || KG.styles._other;
    return el("span", {"class": "badge", style: "background:" + st.color, text: type});
  }

  // Hover summary: an Element, so vis-network shows it as built (its string titles are plain text).
  function tooltip(n) {
    var d = n.info, box = el("div", {"class": "tip"});
    box.appendChild(el("div", {"class": "tip-title", text: d.type === "Paper" ? d.title : d.name}));
    if (d.type === "Paper") {
      var meta = [d.venue, d.year, d.id].filter(Boolean).join(" · ");
      box.appendChild(el("div", {"class": "tip-meta", text: meta}));
      box.appendChild(el("div", {text: clip(d.abstract, 420)}));
    } else {
      box.appendChild(el("div", {"class": "tip-meta", text: d.type + " · in " + d.papers + " paper" + (d.papers === 1 ? "" : "s") +
                                                         (d.meanYear ? " · average year " + d.meanYear.toFixed(1) : "")}));
      if (d.theme) box.appendChild(el("div", {"class": "tip-meta", text: "Theme: " + d.theme}));
      if (d.aliases && d.aliases.length > 1) box.appendChild(el("div", {text: "also: " + clip(d.aliases.join(", "), 160)}));
    }
    var links = [];
    if (d.href) links.push((d.type === "Paper" ? "paper view" : "concept view") + ": " + d.href);
    if (d.url) links.push("source: " + d.url);
    if (links.length) box.appendChild(el("div", {"class": "tip-links", text: links.join("\n") +
      (KG.kind === "overview" ? "\n(click to open it)" : "\n(click for links, double-click to open)")}));
    return box;
  }

  var nodes = new vis.DataSet(KG.nodes.map(function (n) {
    var copy = Object.assign({}, n); copy.title = tooltip(n); delete copy.info; return copy;
  }));
  var edges = new vis.DataSet(KG.edges);
  var container = document.getElementById("network");
  var network = new vis.Network(container, {nodes: nodes, edges: edges}, KG.options);
  var view = window.kgView = {network: network, nodes: nodes, edges: edges, ready: false,
                              find: find, setTypeVisible: setTypeVisible, showDetails: showDetails};

  // vis-network fits the nodes, not their labels: zoom out, about the same centre, until every
  // label is on screen too (a paper page's right-hand column of titles ran off the canvas).
  function fitLabels() {
    network.redraw();  // draws now, which measures the labels
    var c = container.getBoundingClientRect(), s = network.getScale(), mid = network.getViewPosition(), need = 1;
    if (!c.width || !c.height) return;
    nodes.getIds().forEach(function (id) {
      var n = network.body.nodes[id], z = n && n.labelModule && n.labelModule.size;
      if (!z || !z.width) return;
      var dx = Math.max(Math.abs(z.left - mid.x), Math.abs(z.left + z.width - mid.x));
      var dy = Math.max(Math.abs(z.top - mid.y), Math.abs(z.top + z.height - mid.y));
      need = Math.max(need, dx * s / (c.width / 2 - 4), dy * s / (c.height / 2 - 4));
    });
    if (need > 1) network.moveTo({position: mid, scale: s / need});
  }

  function settled() {
    // Stop the simulation once laid out: nodes stay where they are (no endless jiggling).
    network.setOptions({physics: false});
    if (KG.focus && byId[KG.focus]) network.selectNodes([KG.focus]);
    network.fit({maxZoomLevel: 1.2});
    fitLabels();
    document.getElementById("loading").classList.add("done");
    // After the rest of this script has run (the details panel exists by then).
    setTimeout(function () { fromHash(); view.ready = true; }, 0);
  }
  if (KG.nodes.length && KG.options.physics && KG.options.physics.enabled !== false) {
    network.once("stabilizationIterationsDone", settled);
  } else {
    settled();
  }

  // A link into the page: "#<node id>" selects the node, "#concept=<entity id>" the papers using it.
  function fromHash() {
    var h = decodeURIComponent((window.location.hash || "").slice(1));
    if (!h) return;
    var ids = [];
    if (h.indexOf("concept=") === 0) {
      var eid = h.slice(8);
      ids = KG.nodes.filter(function (n) { return (n.info.conceptIds || []).indexOf(eid) >= 0; })
                    .map(function (n) { return n.id; });
    } else if (byId[h]) {
      ids = [h];
    }
    if (!ids.length) return;
    network.selectNodes(ids);
    if (ids.length === 1) { showDetails(ids[0]); network.focus(ids[0], {scale: 1.3}); }
    else network.fit({nodes: ids, maxZoomLevel: 1.3});
    view.selectedFromHash = ids;
  }

  // ---- details panel -------------------------------------------------------------------
  var details = document.getElementById("details");
  function linkTo(id, text) {
    var n = byId[id];
    var href = (n && n.info.href) || (KG.pages[id] || null);
    return href ? el("a", {href: href, text: text}) : el("span", {text: text});
  }
  function conceptChip(c) {
    var href = c.href && safeHref(c.href) ? c.href : null;
    var chip = el(href ? "a" : "span", {"class": "concept", title: c.type + " · in " + c.papers + " papers", text: c.name});
    if (href) chip.setAttribute("href", href);
    return chip;
  }
  function relatedList(rows) {
    if (!rows || !rows.length) return el("p", {"class": "empty", text: "No paper shares a concept with this one."});
    return el("ol", {"class": "related"}, rows.map(function (r) {
      return el("li", {"class": "related-paper", "data-id": r.id}, [
        linkTo(r.id, r.title), " ", el("span", {"class": "score", text: "score " + r.score.toFixed(3)}),
        // A neighbour found by its wording alone shares no specific concept: say so, not an empty list.
        el("div", {"class": "concepts"}, r.shared.length ? ["shared: "].concat(r.shared.map(conceptChip))
                                                          : [r.note || "similar wording"])
      ]);
    }));
  }
  function showDetails(id) {
    var n = byId[id], d = n ? n.info : KG.panel;
    details.textContent = "";
    if (!d) {
      details.appendChild(el("p", {"class": "empty", text: KG.kind === "overview" ?
        "Click a concept to open its page: its papers, what their abstracts state about it, what it is named with." :
        "Click a node to see its details."}));
      return;
    }
    details.appendChild(badge(d.type));
    details.appendChild(el("h2", {text: d.type === "Paper" ? d.title : d.name}));
    var links = el("p", {"class": "links"});
    if (d.href && id !== KG.focus) links.appendChild(el("a", {href: d.href, text: d.type === "Paper" ? "Open paper view" : "Open concept view"}));
    if (d.url && safeHref(d.url)) links.appendChild(el("a", {href: d.url, text: "Source ↗", rel: "noopener noreferrer"}));
    if (d.mapHref) links.appendChild(el("a", {href: d.mapHref, "class": "map-link", text: "On the map"}));
    if (d.type === "Paper") {
      var meta = [d.authors && d.authors.join(", "), d.venue, d.year, "id " + d.id].filter(Boolean).join(" · ");
      details.appendChild(el("p", {"class": "meta", text: meta}));
      // A paper page reads its theme from the build's themes.js, which every build writes afresh.
      var theme = d.topicLabel || (window.KG_THEMES && KG_THEMES.labels[KG_THEMES.of[d.id]]);
      if (theme) details.appendChild(el("p", {"class": "meta theme", text: "Theme: " + theme}));
      details.appendChild(links);
      details.appendChild(el("div", {"class": "abstract", text: d.abstract}));
      if (d.concepts && d.concepts.length) {
        details.appendChild(el("h3", {text: "Concepts"}));
        details.appendChild(el("div", {"class": "concepts"}, d.concepts.map(conceptChip)));
      }
      // What the abstract states between its concepts, grouped by the sentence that states it.
      if (d.statements && d.statements.length) {
        var said = [];
        d.statements.forEach(function (st) {
          var last = said[said.length - 1];
          if (last && last.sentence === st.sentence) last.items.push(st);
          else said.push({sentence: st.sentence, items: [st]});
        });
        details.appendChild(el("h3", {text: "What it states"}));
        details.appendChild(el("ul", {"class": "relations said"}, said.map(function (group) {
          return el("li", {}, group.items.map(function (st) {
            return el("div", {"class": "stated"}, [conceptChip(st.head), " " + st.phrase + " ", conceptChip(st.tail)]);
          }).concat(group.sentence ? [el("div", {"class": "quote"}, [el("q", {text: clip(group.sentence, 240)})])] : []));
        })));
      }
      details.appendChild(el("h3", {text: "Related papers"}));
      details.appendChild(relatedList(KG.related[d.id]));
    } else {
      details.appendChild(el("p", {"class": "meta", text: d.type + " · in " + d.papers + " paper" + (d.papers === 1 ? "" : "s") +
                                                       (d.aliases && d.aliases.length > 1 ? " · also written: " + d.aliases.join(", ") : "")}));
      details.appendChild(links);
      // What the abstracts state about it: "used for" NER, "evaluated on" CoNLL, each with its papers' sentences.
      (d.relations || []).forEach(function (group) {
        details.appendChild(el("h3", {"class": "relation", text: group.phrase}));
        details.appendChild(el("ul", {"class": "relations"}, group.items.map(function (r) {
          return el("li", {}, [
            conceptChip({name: r.name, type: r.type, papers: r.papers, href: r.href}), " ",
            el("span", {"class": "score", text: r.papers + " paper" + (r.papers === 1 ? "" : "s")}),
            el("ul", {"class": "statements"}, r.statements.map(function (st) {
              var link = st.href && safeHref(st.href) ? el("a", {href: st.href, text: st.title}) : el("span", {text: st.title});
              return el("li", {}, [link, ": ", el("q", {text: clip(st.sentence, 240)})]);
            }))
          ]);
        })));
        if (group.total > group.items.length)
          details.appendChild(el("p", {"class": "empty", text: "and " + (group.total - group.items.length) + " more"}));
      });
      // The concept page lists every paper; elsewhere, the papers drawn next to it.
      var users = d.paperList || network.getConnectedNodes(id).filter(function (x) {
        return byId[x] && byId[x].group === "Paper";
      }).map(function (x) { return {id: x, title: byId[x].info.title}; });
      if (users.length) {
        details.appendChild(el("h3", {text: d.type === "Theme" ? "Papers in this theme" :
                                             d.paperList ? "Papers using it" : "Papers using it (drawn here)"}));
        details.appendChild(el("ul", {}, users.map(function (p) { return el("li", {}, [linkTo(p.id, p.title)]); })));
      }
      if (d.cooccurs) {
        details.appendChild(el("h3", {text: "Co-occurs with"}));
        details.appendChild(el("div", {"class": "concepts"}, d.cooccurs.map(conceptChip)));
      }
    }
  }
  network.on("click", function (p) {
    if (!p.nodes.length) return;
    // The overview's concepts are doors: one click opens the concept's page, which lists its papers.
    var n = byId[p.nodes[0]];
    if (KG.kind === "overview" && n && n.info.href && safeHref(n.info.href)) { window.location.href = n.info.href; return; }
    showDetails(p.nodes[0]);
  });
  network.on("doubleClick", function (p) {
    var n = p.nodes.length && byId[p.nodes[0]];
    if (n && n.info.href && safeHref(n.info.href) && n.id !== KG.focus) window.location.href = n.info.href;
  });
  showDetails(KG.focus || null);

  // ---- type filter (the legend) --------------------------------------------------------
  var hiddenTypes = {};
  function setTypeVisible(type, visible) {
    hiddenTypes[type] = !visible;
    nodes.update(KG.nodes.filter(function (n) { return n.group === type && n.id !== KG.focus; })
                         .map(function (n) { return {id: n.id, hidden: !visible}; }));
    var box = document.querySelector('#legend-items input[data-type="' + type + '"]');
    if (box) box.checked = visible;
  }
  var legend = document.getElementById("legend-items");
  KG.legend.forEach(function (t) {
    var st = KG.styles[t.type] || KG.styles._other;
    // Where colour says something else (theme, year), the legend gives the types' shapes only.
    if (KG.colorings) st = {glyph: st.glyph, color: "#57606a"};
    var box = el("input", {type: "checkbox", "data-type": t.type});
    box.checked = true;
    box.addEventListener("change", function () { setTypeVisible(t.type, box.checked); });
    legend.appendChild(el("label", {"class": "legend-item"}, [
      box, el("span", {"class": "glyph", style: "color:" + st.color, text: st.glyph}),
      el("span", {text: t.type}), el("span", {"class": "count", text: String(t.count)})
    ]));
  });

  // ---- colouring (the overview and the map: by theme or by year) ------------------------
  function darker(hex) {  // as kg.view.colors.darker draws the border of a node it colours
    return "#" + [1, 3, 5].map(function (i) {
      return ("0" + Math.floor(parseInt(hex.slice(i, i + 2), 16) * 0.7).toString(16)).slice(-2);
    }).join("");
  }
  function colorBy(key) {
    var c = KG.colorings.filter(function (x) { return x.key === key; })[0];
    if (!c) return;
    nodes.update(KG.nodes.filter(function (n) { return n.info.colors && n.info.colors[key]; }).map(function (n) {
      var bg = n.info.colors[key];
      return {id: n.id, color: {background: bg, border: darker(bg), highlight: {background: bg, border: "#1f2328"},
                                hover: {background: bg, border: "#1f2328"}}};
    }));
    var keyBox = document.getElementById("coloring-key");
    keyBox.textContent = "";
    c.legend.forEach(function (item) {
      keyBox.appendChild(el("div", {"class": "key-item"}, [
        el("span", {"class": "swatch", style: "background:" + item.color}), el("span", {text: item.label}),
        item.count ? el("span", {"class": "count", text: String(item.count)}) : null
      ]));
    });
    view.coloring = key;
    var radio = document.querySelector('#coloring-items input[value="' + key + '"]');
    if (radio) radio.checked = true;
  }
  view.colorBy = colorBy;
  if (KG.colorings && KG.colorings.length) {
    var coloring = document.getElementById("coloring"), items = document.getElementById("coloring-items");
    coloring.hidden = false;
    KG.colorings.forEach(function (c) {
      var radio = el("input", {type: "radio", name: "coloring", value: c.key});
      radio.addEventListener("change", function () { if (radio.checked) colorBy(c.key); });
      items.appendChild(el("label", {"class": "legend-item"}, [radio, el("span", {text: c.name})]));
    });
    items.appendChild(el("div", {id: "coloring-key", "class": "coloring-key"}));
    colorBy(KG.colorings[0].key);
  }

  // ---- search --------------------------------------------------------------------------
  var list = document.getElementById("search-list"), status = document.getElementById("search-status");
  var input = document.getElementById("search");
  // The suggestions: the entries containing what is typed, a few dozen at most. A list of tens of
  // thousands (every paper and concept of a large build) would slow each keystroke to a crawl.
  var SUGGESTIONS = 40;
  function suggest() {
    var q = input.value.trim().toLowerCase(), shown = 0;
    list.textContent = "";
    for (var i = 0; i < KG.search.length && shown < SUGGESTIONS; i++) {
      if (!q || KG.search[i].label.toLowerCase().indexOf(q) >= 0) {
        list.appendChild(el("option", {value: KG.search[i].label}));
        shown++;
      }
    }
  }
  input.addEventListener("input", suggest);
  suggest();
  // The overview holds only its drawn concepts; the rest comes from a script next to it, loaded
  // the first time someone searches (a page opened from disk may load a script, not fetch JSON).
  var rest = {state: KG.searchSrc ? "unloaded" : "loaded", waiting: []};
  function loadRest(then) {
    if (rest.state === "loaded") { then(); return; }
    rest.waiting.push(then);
    if (rest.state === "loading") return;
    rest.state = "loading";
    var s = document.createElement("script");
    s.src = KG.searchSrc;
    s.onload = s.onerror = function () {
      (window.KG_SEARCH || []).forEach(function (x) { KG.search.push(x); });
      suggest();
      rest.state = "loaded";
      rest.waiting.splice(0).forEach(function (f) { f(); });
    };
    document.head.appendChild(s);
  }
  input.addEventListener("focus", function () { loadRest(function () {}); });
  view.searchLoaded = function () { return rest.state === "loaded"; };
  function find(q) {
    q = (q || "").trim().toLowerCase();
    if (!q) return null;
    if (rest.state !== "loaded" && !KG.search.some(function (s) { return s.label.toLowerCase() === q; })) {
      status.textContent = "Searching…";
      loadRest(function () { find(q); });
      return null;
    }
    var hit = null;
    KG.search.some(function (s) { if (s.label.toLowerCase() === q || s.id.toLowerCase() === q) { hit = s; return true; } return false; });
    // A paper by a concept it names ("FedBiscuit"), when no title or concept node is called that.
    if (!hit) KG.search.some(function (s) {
      if ((s.terms || []).some(function (t) { return t.toLowerCase() === q; })) { hit = s; return true; } return false;
    });
    if (!hit) KG.search.some(function (s) { if (s.label.toLowerCase().indexOf(q) >= 0) { hit = s; return true; } return false; });
    status.textContent = "";
    if (!hit) { status.textContent = "Nothing matches “" + q + "”."; return null; }
    if (byId[hit.id]) {
      if (hiddenTypes[byId[hit.id].group]) setTypeVisible(byId[hit.id].group, true);
      network.selectNodes([hit.id]);
      network.focus(hit.id, {scale: 1.3, animation: {duration: 400, easingFunction: "easeInOutQuad"}});
      showDetails(hit.id);
      status.textContent = "Showing " + hit.label + ".";
    } else {
      status.appendChild(document.createTextNode(hit.label + " is not drawn here" + (hit.href ? ": " : ".")));
      if (hit.href) status.appendChild(el("a", {href: hit.href, text: "open its page"}));
    }
    return hit.id;
  }
  document.getElementById("search-form").addEventListener("submit", function (e) {
    e.preventDefault(); find(document.getElementById("search").value);
  });
})();
