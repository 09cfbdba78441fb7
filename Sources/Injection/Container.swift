// Placeholder: the container lands with issue 2.
