"""Scalers, encoders and feature expansion on the device, mirroring ``sklearn.preprocessing``."""

from ember.ml.preprocessing._data import MaxAbsScaler, MinMaxScaler, Normalizer, RobustScaler, StandardScaler
from ember.ml.preprocessing._encoders import OneHotEncoder, OrdinalEncoder
from ember.ml.preprocessing._label import LabelEncoder
from ember.ml.preprocessing._polynomial import PolynomialFeatures

__all__ = [
    "LabelEncoder",
    "MaxAbsScaler",
    "MinMaxScaler",
    "Normalizer",
    "OneHotEncoder",
    "OrdinalEncoder",
    "PolynomialFeatures",
    "RobustScaler",
    "StandardScaler",
]
