"""Silver et al.'s released conversations (``<env>_<seed>_<exp>/<k>-response.txt``) replayed through Sil."""
