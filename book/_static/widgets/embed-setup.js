// Loaded after require.js and before embed-amd.js (see html_js_files in _config.yml).
(function () {
  // embed-amd.js resolves its FontAwesome fonts against each AMD module's URL,
  // which by default is relative to the page (a 404). Map the bundled module ids
  // to this directory, where the fonts are vendored.
  var here = document.currentScript.src;
  var dir = here.slice(0, here.lastIndexOf("/") + 1);
  window.__jupyter_widgets_assets_path__ = dir;
  window.requirejs.config({
    paths: {
      "@jupyter-widgets/base": dir + "base",
      "@jupyter-widgets/controls": dir + "controls",
      "@jupyter-widgets/base7": dir + "base7",
      "@jupyter-widgets/controls7": dir + "controls7",
      "@jupyter-widgets/html-manager": dir + "html-manager",
      "@jupyter-widgets/html-manager/dist": dir.slice(0, -1),
    },
  });

  // @jupyter-widgets/controls typesets widget labels with the MathJax 2 call
  // MathJax.Hub.Queue(["Typeset", MathJax.Hub, el]). The book loads MathJax 3,
  // which has no Hub, so that call throws. Provide Hub.Queue on top of MathJax 3.
  // Elements queued before MathJax 3 has loaded are typeset once it is ready.
  var pending = [];
  var hub = {
    Queue: function (cmd) {
      var el = Array.isArray(cmd) ? cmd[2] : null;
      if (!el) return;
      var mj = window.MathJax;
      if (mj && typeof mj.typesetPromise === "function") {
        mj.typesetPromise([el]);
      } else {
        pending.push(el);
      }
    },
  };
  var config = window.MathJax || {};
  config.Hub = hub;
  config.startup = config.startup || {};
  config.startup.ready = function () {
    window.MathJax.startup.defaultReady();
    window.MathJax.Hub = hub;
    window.MathJax.startup.promise.then(function () {
      if (pending.length) window.MathJax.typesetPromise(pending.splice(0));
    });
  };
  window.MathJax = config;
})();
