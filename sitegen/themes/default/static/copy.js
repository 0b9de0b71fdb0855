// Shows the "Copy BibTeX" button only where the clipboard can be used.
(function () {
  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    if (!navigator.clipboard) return;
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    var status = button.parentElement.querySelector(".copy-status");
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(source.innerText).then(function () {
        if (status) status.textContent = "Copied to the clipboard.";
      }, function () {
        if (status) status.textContent = "Copy failed: select the text and copy it by hand.";
      });
    });
  });
})();
