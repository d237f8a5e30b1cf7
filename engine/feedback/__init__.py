"""Every message a model gets after a check, produced from structured check results."""
