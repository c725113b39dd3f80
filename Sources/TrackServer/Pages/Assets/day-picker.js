// The map page's day picker submits its form on change (no inline onchange).
document.querySelectorAll('input[name=day]').forEach(i => i.addEventListener('change', () => i.form.submit()));
