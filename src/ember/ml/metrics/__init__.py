"""Metrics on the device, mirroring ``sklearn.metrics``."""

from ember.ml.metrics._metrics import accuracy_score, confusion_matrix, log_loss, r2_score, roc_auc_score

__all__ = ["accuracy_score", "confusion_matrix", "log_loss", "r2_score", "roc_auc_score"]
