"""Front ends for the book: ipywidgets for JupyterLab, bokeh CustomJS for the static HTML book."""
